//! The mutants of the reference server: each is the reference with exactly one rule broken, so
//! a scorer can be shown to catch that rule (and only that rule) on the probe set.
//!
//! A mutant is one row of the table in `table.rs` ([`MUTANTS`], [`AUTH_MUTANTS`]): its name,
//! the rule it breaks, a description and its [`Behaviour`], the stage of the reference it
//! alters and the function that alters it. Code that needs one mutant names its constant
//! (`mutants::ORIGIN_UNCHECKED`); a name typed by a user goes through [`mutant`], the one
//! lookup, which refuses an unknown name. The request rewrites live in `request.rs`,
//! `request_headers.rs` and `request_params.rs`, the answer rewrites in `answer.rs`; the auth
//! changes are [`AuthChange`]s that `reference::auth` applies.

mod answer;
mod content;
mod extension;
mod pages;
mod request;
mod request_headers;
mod request_params;
mod shape;
mod shape_gaps;
mod should;
mod stream;
mod table;

pub use answer::Answered;
pub use pages::needs_pages;
pub use table::*;

use super::auth::AuthChange;
use super::response::Response;
use super::{render, respond};
use crate::case::Case;
use crate::judge::judge;
use crate::rules::RuleId;
use crate::surface::Surface;
use crate::verdict::Verdict;
use std::fmt;

/// Mutants whose broken rule an HTTP parser hides, with the reason: hyper (and most HTTP
/// stacks) lowercase header names and strip optional whitespace before the server sees the
/// request, so over HTTP these answer like the reference and no HTTP client can catch them.
/// Their rules are checked in process (`oracle/tests/reference_pure.rs`); the HTTP
/// calibrations (`mcpdiff bench mutants`, tests/runner_calibration.rs, tests/attribution.rs)
/// skip them.
pub const HIDDEN_BY_HTTP_PARSERS: [(&Mutant, &str); 2] = [
    (
        &HEADER_NAMES_CASE_SENSITIVE,
        "hyper lowercases header names before the server sees them",
    ),
    (
        &OWS_NOT_TRIMMED,
        "hyper strips optional whitespace from header values",
    ),
];

/// Whether `m` is one of [`HIDDEN_BY_HTTP_PARSERS`].
pub fn hidden_by_http_parsers(m: &Mutant) -> bool {
    HIDDEN_BY_HTTP_PARSERS.iter().any(|(h, _)| *h == m)
}

/// One deliberately broken variant of the reference server. Two rows are the same mutant when
/// their names are (names are unique: `mutants::tests::names_are_unique_across_both_tables`).
#[derive(Clone, Copy, Debug)]
pub struct Mutant {
    /// Stable name, used by `mcpdiff serve --mutant NAME`.
    pub name: &'static str,
    /// The one rule it breaks.
    pub rule: RuleId,
    /// What it does wrong, in one line.
    pub description: &'static str,
    /// Where and how it departs from the reference.
    pub behaviour: Behaviour,
}

impl PartialEq for Mutant {
    fn eq(&self, other: &Mutant) -> bool {
        self.name == other.name
    }
}

impl Eq for Mutant {}

/// Rewrites the request (or the surface it is judged against) before the judge; `Some` is an
/// answer given in the judge's place.
pub type RequestChange = fn(&mut Case, &mut Surface) -> Option<Response>;
/// Rewrites the reference answer after the judge.
pub type AnswerChange = fn(&Answered, &mut Response);
/// Renders a Verdict in place of the reference renderer.
pub type RenderChange = fn(&Verdict, &Case, &Surface) -> Response;
/// The surface a mutant serves in place of the one it is given (a capability withdrawn or
/// declared, which discovery then finds).
pub type SurfaceChange = fn(&Surface) -> Surface;

/// The stage of the reference server a mutant alters, and how.
#[derive(Clone, Copy, Debug)]
pub enum Behaviour {
    /// Reads the request the way a server with one check missing or wrong would (then the
    /// judge and the renderer run as usual), or refuses a request the reference serves.
    Request(RequestChange),
    /// Rewrites the answer the reference gives: a wrong status or code for one class of
    /// refusal, a missing or extra header or field, a wrong id.
    Answer(AnswerChange),
    /// Renders the Verdict with another renderer.
    Render(RenderChange),
    /// Serves another surface (judged and rendered as the reference serving it would be),
    /// then rewrites the answer: a rule that binds only a target the fixture is not
    /// (`fixture::surface_for`) broken on such a target.
    OnSurface(SurfaceChange, AnswerChange),
    /// Changes the guard or the metadata of the protected reference (`serve --auth`); the
    /// answers behind the guard are the reference's.
    Auth(AuthChange),
}

impl Mutant {
    /// What it changes in the protected reference's guard and metadata, if it is an auth
    /// mutant.
    pub fn auth_change(&self) -> Option<AuthChange> {
        match self.behaviour {
            Behaviour::Auth(change) => Some(change),
            Behaviour::Request(_)
            | Behaviour::Answer(_)
            | Behaviour::Render(_)
            | Behaviour::OnSurface(..) => None,
        }
    }
}

/// A name that is no mutant's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownMutant(pub String);

impl fmt::Display for UnknownMutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown mutant '{}'", self.0)
    }
}

impl std::error::Error for UnknownMutant {}

/// The mutant called `name` (either table).
pub fn mutant(name: &str) -> Result<&'static Mutant, UnknownMutant> {
    MUTANTS
        .iter()
        .chain(AUTH_MUTANTS)
        .find(|m| m.name == name)
        .ok_or_else(|| UnknownMutant(name.to_string()))
}

/// The answer of mutant `m` to `case`. An auth mutant answers like the reference: what it
/// breaks is the guard in front (`reference::auth::guard`).
pub fn respond_mutant(m: &Mutant, case: &Case, surface: &Surface) -> Response {
    match m.behaviour {
        Behaviour::Request(change) => {
            let mut case = case.clone();
            let mut surface = surface.clone();
            if let Some(r) = change(&mut case, &mut surface) {
                return r;
            }
            render(&judge(&case, &surface), &case, &surface)
        }
        Behaviour::Answer(change) => {
            let verdict = judge(case, surface);
            let mut r = render(&verdict, case, surface);
            change(&Answered::new(case, surface, &verdict), &mut r);
            r
        }
        Behaviour::Render(render_with) => render_with(&judge(case, surface), case, surface),
        Behaviour::OnSurface(serve, change) => {
            let surface = serve(surface);
            let verdict = judge(case, &surface);
            let mut r = render(&verdict, case, &surface);
            change(&Answered::new(case, &surface, &verdict), &mut r);
            r
        }
        Behaviour::Auth(_) => respond(case, surface),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn all() -> impl Iterator<Item = &'static Mutant> {
        MUTANTS.iter().chain(AUTH_MUTANTS)
    }

    #[test]
    fn names_are_unique_across_both_tables() {
        let names: BTreeSet<_> = all().map(|m| m.name).collect();
        assert_eq!(names.len(), all().count());
    }

    /// A name is its handle in kebab case, so a typo in either shows up here (an identifier
    /// cannot start with a digit: `405-no-allow` is `NO_ALLOW_405`).
    #[test]
    fn each_name_spells_its_handle() {
        let handles = table::MUTANT_HANDLES.iter().chain(table::AUTH_HANDLES);
        assert_eq!(handles.clone().count(), all().count());
        for (handle, name) in handles {
            let kebab = handle.to_ascii_lowercase().replace('_', "-");
            let spelt = match name.split_once('-') {
                Some((digits, rest)) if digits.bytes().all(|b| b.is_ascii_digit()) => {
                    format!("{rest}-{digits}")
                }
                _ => name.to_string(),
            };
            assert_eq!(kebab, spelt, "{handle} is named {name}");
        }
    }

    #[test]
    fn the_lookup_finds_every_row_and_refuses_other_names() {
        for m in all() {
            assert_eq!(mutant(m.name).map(|f| f.name), Ok(m.name));
        }
        for name in [
            "origin-uncheked",
            "Origin-Unchecked",
            " origin-unchecked",
            "",
        ] {
            assert_eq!(mutant(name), Err(UnknownMutant(name.to_string())));
        }
        assert_eq!(UnknownMutant("x".into()).to_string(), "unknown mutant 'x'");
    }

    #[test]
    fn auth_rows_and_only_auth_rows_change_the_guard() {
        for m in AUTH_MUTANTS {
            assert!(m.auth_change().is_some(), "{} changes no guard", m.name);
            assert!(
                m.rule.0.starts_with("AUTH-"),
                "{} breaks {}",
                m.name,
                m.rule
            );
        }
        for m in MUTANTS {
            assert!(
                m.auth_change().is_none(),
                "{} is in the wrong table",
                m.name
            );
        }
        let changes: BTreeSet<_> = AUTH_MUTANTS
            .iter()
            .filter_map(|m| m.auth_change())
            .map(|c| format!("{c:?}"))
            .collect();
        assert_eq!(changes.len(), AUTH_MUTANTS.len(), "two rows share a change");
    }
}
