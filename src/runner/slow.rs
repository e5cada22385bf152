//! Slow tools: a tool whose calls keep running into the per-case limit costs the
//! run a full limit per call and decides nothing. The runner (not the generator, which stays
//! a pure function of seed and index) sends such calls only at a falling weight: the case
//! index is kept or skipped by a hash of (seed, index), so a run against a server with no
//! slow tool sends exactly the cases it always did.
//!
//! After fuzzing, one cut call of each slow tool is re-sent with the time left
//! (`probe_slow_tools`), so the report can name the `--timeout-ms` that lets it finish.
//!
//! Tool names are read from a case body only once some call was cut (`active`), so a run
//! against a quick server pays nothing for this.

use mcpdiff_oracle::undetermined::is_cut;
use mcpdiff_oracle::{Case, Observation};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::tally::Tally;
use super::{Sender, Target};

/// Never below this share of a slow tool's calls: later calls still see whether it sped up.
const MIN_WEIGHT: f64 = 0.05;

/// Cut and total calls per (case stream, tool), shared by the workers.
#[derive(Default)]
pub(crate) struct SlowTools {
    active: AtomicBool,
    counts: Mutex<BTreeMap<(usize, String), (u64, u64)>>,
}

impl SlowTools {
    /// Whether any call was cut so far (before that, no case body is read).
    pub fn active(&self) -> bool {
        self.active.load(Ordering::Relaxed)
    }

    /// Count one call of `tool` in case stream `group`.
    pub fn note(&self, group: usize, tool: &str, cut: bool) {
        if cut {
            self.active.store(true, Ordering::Relaxed);
        }
        let mut m = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let c = m.entry((group, tool.to_string())).or_default();
        c.0 += 1;
        c.1 += u64::from(cut);
    }

    /// Whether run index `index` (a call of `tool`) is sent: always for a tool that was never
    /// cut, else with probability `weight`, decided by a hash of (seed, index).
    pub fn keep(&self, group: usize, tool: &str, seed: u64, index: u64) -> bool {
        let (calls, cut) = {
            let m = self.counts.lock().unwrap_or_else(|p| p.into_inner());
            m.get(&(group, tool.to_string())).copied().unwrap_or((0, 0))
        };
        let w = weight(calls, cut);
        w >= 1.0 || unit(seed, index) < w
    }
}

/// The share of a tool's calls still sent after `cut` of `calls` were cut: the share that
/// finished (one call of grace), never below [`MIN_WEIGHT`].
pub fn weight(calls: u64, cut: u64) -> f64 {
    if cut == 0 {
        return 1.0;
    }
    ((calls - cut.min(calls) + 1) as f64 / (calls + 1) as f64).max(MIN_WEIGHT)
}

/// A number in [0, 1) from (seed, index) (splitmix64).
fn unit(seed: u64, index: u64) -> f64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// What an answer says about a run of the tool: `Some(true)` cut by the per-case limit,
/// `Some(false)` finished with a result, `None` not a run of the tool (a refusal, an error:
/// they say nothing about how long the tool takes).
pub fn call_outcome(obs: &Observation) -> Option<bool> {
    if is_cut(obs) {
        return Some(true);
    }
    let result = obs.http()?.rpc_response()?.get("result").is_some();
    result.then_some(false)
}

/// The tool a case calls (`tools/call` with a string `params.name`), if any.
pub fn tool_of(case: &Case) -> Option<String> {
    // most bodies are not tool calls: skip the parse for them
    if !case.body.windows(10).any(|w| w == b"tools/call") {
        return None;
    }
    let v: Value = serde_json::from_slice(&case.body).ok()?;
    if v.get("method")?.as_str()? != "tools/call" {
        return None;
    }
    Some(v.get("params")?.get("name")?.as_str()?.to_string())
}

/// Longest limit a slow tool's probe call gets (within the run's budget).
const PATIENT_MAX: Duration = Duration::from_secs(120);

/// Re-send the first cut call of each slow tool of `t` once, with the time left before `end`
/// (at most [`PATIENT_MAX`]), and note how long it took and whether it finished. Returns the
/// requests sent.
pub(crate) async fn probe_slow_tools<S: Sender>(
    t: &Target<S>,
    tally: &mut Tally,
    end: Instant,
) -> u64 {
    let mut sent = 0;
    for times in tally.tools.values_mut().filter(|x| x.is_slow()) {
        let Some(case) = times.cut_case.clone() else {
            continue;
        };
        let left = end.saturating_duration_since(Instant::now());
        // a probe no longer than the calls that were cut would learn nothing
        if left <= times.longest_cut + Duration::from_secs(1) {
            break;
        }
        let limit = left.min(PATIENT_MAX);
        let began = Instant::now();
        let obs =
            tokio::time::timeout_at((began + limit).into(), t.sender.send_patient(case, limit))
                .await;
        sent += 1;
        // finished means the tool's result came back; a refusal says nothing about its time
        let finished = obs.is_ok_and(|o| call_outcome(&o) == Some(false));
        times.patient = Some((began.elapsed(), finished));
    }
    sent
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_fall_with_cuts_and_keep_a_floor() {
        assert_eq!(weight(10, 0), 1.0);
        assert!(weight(4, 4) < 0.3);
        assert_eq!(weight(1000, 1000), MIN_WEIGHT);
        let s = SlowTools::default();
        assert!(
            (0..100).all(|i| s.keep(0, "t", 1, i)),
            "never cut: always sent"
        );
        for _ in 0..50 {
            s.note(0, "t", true);
        }
        let kept = (0..10_000).filter(|&i| s.keep(0, "t", 1, i)).count();
        assert!((300..800).contains(&kept), "{kept} of 10,000 kept");
        assert!(
            s.keep(1, "t", 1, 0) || s.keep(1, "t", 1, 1),
            "another stream is its own"
        );
    }

    #[test]
    fn tool_names_come_from_tools_call_bodies_only() {
        let call = Case::post(
            "/mcp",
            &[],
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}"#.to_vec(),
        );
        assert_eq!(tool_of(&call).as_deref(), Some("slow"));
        let list = Case::post(
            "/mcp",
            &[],
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"tools/call"}}"#
                .to_vec(),
        );
        assert_eq!(tool_of(&list), None);
    }
}
