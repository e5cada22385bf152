//! Replay's benign twin, as a run has it (`runner::shrink_witnesses`): a stored case failing
//! a benign-input rule (an `Mcp-Session-Id`, odd header-name case, padding, a sentinel,
//! another client's `clientInfo`, an unrequested `inputResponses` entry) is sent once more
//! without its benign inputs. When that plain twin fails too, on other rules, the benign
//! input is not what the target trips over, and the benign rule's failure is set aside with
//! a note, as the run would not have reported it (P-BENIGN).

use mcpdiff::corpus::replay::ReplayOutcome;
use mcpdiff::corpus::Recorded;
use mcpdiff::corpus::{classify_explained, explained_benign, Status};
use mcpdiff::transport::{Client, Endpoint};
use mcpdiff_oracle::isolation::benign::{without_benign, BENIGN_RULES};
use mcpdiff_oracle::{assess_against, judge, Case, Observation, Surface, Verdict};

/// `out` (the answer to `sent`, the case at the target's endpoint, judged as `judged` with
/// `verdict` against `surface`) with the benign rules its plain twin explains set aside, and
/// the note that says so. Unchanged, with no note, when `out` fails no benign rule, the case
/// has no benign input to take out, or the twin's answer decides nothing or passes.
pub(super) async fn with_twin(
    client: &Client,
    (endpoint, sent): (&Endpoint, &Case),
    (judged, verdict, surface): (&Case, &Verdict, &Surface),
    (stored, obs): (Option<&Recorded>, &Observation),
    out: ReplayOutcome,
) -> (ReplayOutcome, Option<String>) {
    let benign = |r: &String| BENIGN_RULES.iter().any(|b| b.0 == r.as_str());
    if !out.failing.iter().any(benign) {
        return (out, None);
    }
    // `sent` is `judged` at the target's endpoint: only the path differs, which
    // `without_benign` leaves alone
    let plain_sent = without_benign(sent);
    if plain_sent == *sent {
        return (out, None);
    }
    let answer = client.send(&plain_sent, endpoint).await;
    let plain = Case {
        path: judged.path.clone(),
        ..plain_sent
    };
    let settled = assess_against(&judge(&plain, surface), &answer);
    if settled.undetermined.is_some() && settled.findings.is_empty() {
        return (out, None);
    }
    let twin_failing: Vec<String> = settled.findings.into_iter().map(|f| f.rule).collect();
    let explained = explained_benign(&out.failing, &twin_failing);
    if explained.is_empty() {
        return (out, None);
    }
    let note = format!(
        "{} set aside: the same request without its benign input was answered {} and fails {}",
        explained.join(", "),
        answer.summary(),
        twin_failing.join(", ")
    );
    let now = classify_explained(verdict, stored, obs, &explained);
    debug_assert!(
        now.status != Status::Passing,
        "a failure set aside is not a pass"
    );
    (now, Some(note))
}
