//! Generated legacy (2025-11-25) sequences: a pure function of (seed, index), like the
//! modern generator, so a sequence's index alone reproduces it. A sequence opens with
//! `initialize` (a known version, or one no server implements) and walks through the steps
//! a 2025-11-25 client and a confused one can take: the handshake's notification, a response
//! to a server request, requests
//! with the session id, without it or with one never minted, with the negotiated, no or an
//! unsupported version header, a foreign Origin (on a POST or a GET), GET, a resumption (GET with `Last-Event-ID`),
//! DELETE, a second `initialize`.

use crate::choice::{Draw, Rng, Source};
use mcpdiff_oracle::legacy::{LegacyStep, SessionUse, VersionHeader, BOGUS_VERSION};

/// Steps after the opening `initialize`, at most.
pub const MAX_STEPS: usize = 9;

/// Sequence `index` of a run with `seed`, opening with one of `versions` (the target's known
/// legacy versions, newest first; may be empty) or a version no server implements.
pub fn legacy_sequence(seed: u64, index: u64, versions: &[String]) -> Vec<LegacyStep> {
    let mut rng = Rng::for_case(seed ^ 0x4c45_4741_4359, index);
    let mut steps = vec![initialize(&mut rng, versions)];
    let n = rng.len(2, MAX_STEPS);
    for _ in 0..n {
        steps.push(step(&mut rng, versions));
    }
    steps
}

fn initialize(rng: &mut Rng, versions: &[String]) -> LegacyStep {
    let version = match versions.len() {
        0 => BOGUS_VERSION.to_string(),
        n => match rng.weighted(&[6, 2, 1]) {
            0 => versions[0].clone(),
            1 => versions[rng.below(n)].clone(),
            _ => BOGUS_VERSION.to_string(),
        },
    };
    LegacyStep::Initialize { version }
}

fn session(rng: &mut Rng) -> SessionUse {
    [
        SessionUse::Current,
        SessionUse::Missing,
        SessionUse::Unknown,
    ][rng.weighted(&[6, 1, 1])]
}

fn step(rng: &mut Rng, versions: &[String]) -> LegacyStep {
    // (index 7, last so the other indices keep their meaning: a resumption, L1)
    match rng.weighted(&[2, 6, 2, 2, 1, 1, 1, 1]) {
        0 => LegacyStep::Initialized,
        6 => LegacyStep::Response,
        7 => LegacyStep::Resume,
        1 => LegacyStep::Request {
            method: rng
                .pick(&["ping", "tools/list", "no/such_method"])
                .to_string(),
            session: session(rng),
            version: [
                VersionHeader::Negotiated,
                VersionHeader::Absent,
                VersionHeader::Unsupported,
            ][rng.weighted(&[5, 2, 1])],
        },
        2 => LegacyStep::Get {
            session: session(rng),
        },
        3 => LegacyStep::Delete {
            session: session(rng),
        },
        4 => [LegacyStep::ForeignOrigin, LegacyStep::ForeignOriginGet][rng.below(2)].clone(),
        _ => initialize(rng, versions),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sequence_is_a_function_of_seed_and_index() {
        let v = vec!["2025-11-25".to_string()];
        assert_eq!(legacy_sequence(7, 3, &v), legacy_sequence(7, 3, &v));
        assert_ne!(legacy_sequence(7, 3, &v), legacy_sequence(7, 4, &v));
        let s = legacy_sequence(1, 0, &[]);
        assert!(matches!(&s[0], LegacyStep::Initialize { version } if version == BOGUS_VERSION));
        assert!(s.len() > 2 && s.len() <= MAX_STEPS + 1);
    }
}
