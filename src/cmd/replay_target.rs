//! A target of `mcpdiff replay`: where it is, what it declares (discovered as `run` discovers
//! it, so each stored case is judged with the target's own surface), the safety gate that
//! holds tool calls back off loopback, and the tallies its summary line prints.

use super::exit;
use mcpdiff::corpus::Status;
use mcpdiff::pipeline::prepare::judged_surface;
use mcpdiff::runner::prepare::{gated_tool, is_loopback, TargetError};
use mcpdiff::transport::{Client, Endpoint, EndpointError};
use mcpdiff_oracle::{Case, Surface};
use std::collections::BTreeMap;

pub(super) struct ReplayTarget {
    pub(super) name: String,
    pub(super) url: String,
    pub(super) endpoint: Endpoint,
    /// Named by the user (not the in-process reference): only such a target is judged as
    /// protected, as in a run.
    user: bool,
    /// On a loopback host: every stored tool call may be sent (`runner::prepare::gated_tool`).
    loopback: bool,
    /// Stored requests not sent: the target is not on loopback and a tool one would call has
    /// no readOnlyHint (nor `--allow-tool`).
    pub(super) gated: usize,
    /// What the target declares, discovered as a run discovers it: a stored case's answer is
    /// judged with it (`None`: `server/discover` gave no result, so each case's stored surface
    /// stands; with no connection at all, the case's answer will decide nothing either).
    pub(super) surface: Option<Surface>,
    /// Cases answered with something other than a refused connection.
    pub(super) reached: usize,
    pub(super) counts: BTreeMap<Status, usize>,
}

/// What the safety gate reads besides the target: the surface a case was saved with (which
/// stands in for a target whose surface was not read) and the tools `--allow-tool` names.
pub(super) struct Gate<'a> {
    pub(super) stored: &'a Surface,
    pub(super) allow_tools: &'a [String],
}

impl ReplayTarget {
    /// The target at `url`; `user`: named by the user.
    pub(super) fn new(name: String, url: String, user: bool) -> Result<Self, EndpointError> {
        let endpoint = Endpoint::parse(&url)?;
        Ok(ReplayTarget {
            name,
            url,
            loopback: is_loopback(&endpoint),
            endpoint,
            user,
            gated: 0,
            surface: None,
            reached: 0,
            counts: BTreeMap::new(),
        })
    }

    /// Discover what the target declares (`pipeline::prepare::judged_surface`) and say on
    /// stderr what its cases will be judged with. `Err`: the line that ends the replay.
    pub(super) async fn discover(&mut self, client: &Client) -> Result<(), String> {
        match judged_surface(&self.name, &self.url, client, self.user).await {
            Ok(Some(surface)) => {
                eprintln!(
                    "mcpdiff: {}: judged with what it declares: {} tool(s), {} resource(s), {} \
                     prompt(s){}",
                    self.url,
                    surface.tools.len(),
                    surface.resources.len() + surface.resource_templates.len(),
                    surface.prompts.len(),
                    if surface.is_dual_era() {
                        ", also 2025-11-25 (dual-era)"
                    } else {
                        ""
                    }
                );
                self.surface = Some(surface);
            }
            // nothing declared could be read: each case keeps the surface it was saved with
            Ok(None) => eprintln!(
                "mcpdiff: {}: server/discover gave no result; its answers are judged with the \
                 surface each case was saved with",
                self.url
            ),
            // no connection: every case will say so ("refused every connection")
            Err(TargetError::Refused { .. }) => {}
            // the server asked for credentials: its cases will be "not determined:
            // unauthorized"; say once what it asked for
            Err(TargetError::Unauthorized(message)) => eprintln!("mcpdiff: {message}"),
            Err(e) => return Err(e.to_string()),
        }
        Ok(())
    }

    /// Print this target's summary line; true when it decided nothing though server cases
    /// were `sent` to it (refused every connection, or every answer decided nothing).
    pub(super) fn print_summary(&self, sent: bool) -> bool {
        let n = |s: Status| self.counts.get(&s).copied().unwrap_or(0);
        // answers that decide nothing are shown, never counted as passing or failing
        let not_determined: Vec<String> = self
            .counts
            .iter()
            .filter(|(s, _)| s.undecided().is_some())
            .map(|(s, k)| format!("{k} {}", s.label()))
            .collect();
        let determined: usize = self
            .counts
            .iter()
            .filter(|(s, _)| s.undecided().is_none())
            .map(|(_, k)| k)
            .sum();
        println!(
            "  {} ({}): {} passing, {} fixed, {} still failing, {} newly failing{}{}",
            self.name,
            self.url,
            n(Status::Passing),
            n(Status::Fixed),
            n(Status::StillFailing),
            n(Status::NewlyFailing),
            if not_determined.is_empty() {
                String::new()
            } else {
                format!(", {}", not_determined.join(", "))
            },
            if self.gated == 0 {
                String::new()
            } else {
                format!(", {} not sent (tool calls off loopback)", self.gated)
            }
        );
        if sent && self.reached == 0 {
            eprintln!(
                "mcpdiff: {} refused every connection; is it running?",
                self.url
            );
            return true;
        } else if sent && determined == 0 {
            // every answer was cut, refused by auth or lost: the replay decided nothing, the
            // check `run` makes too (`exit::nothing_decided`)
            let why: Vec<String> = self
                .counts
                .iter()
                .filter_map(|(s, k)| s.undecided().map(|why| format!("{k} {why}")))
                .collect();
            exit::say(&exit::nothing_decided(&self.url, &why.join(", ")));
            return true;
        }
        false
    }

    /// Whether the gate holds `cases` (one stored case, or a sequence) back from this target:
    /// off loopback, one of them calls a tool the target declares without readOnlyHint and
    /// `--allow-tool` does not name (`run`'s gate: a corpus saved on a development server,
    /// replayed against a deployed one, must not change anything there). Said and counted
    /// when it does.
    pub(super) fn holds_back<'c>(
        &mut self,
        cases: impl IntoIterator<Item = &'c Case>,
        gate: &Gate<'_>,
        file: &str,
    ) -> bool {
        if self.loopback {
            return false;
        }
        let surface = self.surface.as_ref().unwrap_or(gate.stored);
        let Some(tool) = cases
            .into_iter()
            .find_map(|c| gated_tool(c, surface, gate.allow_tools))
        else {
            return false;
        };
        self.gated += 1;
        println!(
            "not sent       {file}  {}: tool '{tool}' is not annotated readOnlyHint and the \
             target is not on loopback (pass --allow-tool {tool} to call it)",
            self.name
        );
        true
    }
}

/// `case` as sent to `endpoint`: the stored endpoint path stands for "the MCP endpoint" on
/// every target (an authorization probe may carry a query after it).
pub(super) fn at_endpoint(case: &mut Case, stored_endpoint: &str, endpoint: &Endpoint) {
    if let Some(rest) = case.path.strip_prefix(stored_endpoint) {
        if rest.is_empty() || rest.starts_with('?') {
            case.path = format!("{}{rest}", endpoint.path);
        }
    }
}
