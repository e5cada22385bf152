//! A connection probe's requests as the corpus keeps them, judged again: the requests grouped
//! by the connection that carried them, in the order sent (`ShrunkFinding::connections` in the
//! runner), and the answers to a new sending of them in the same shape. The shape says which
//! request is which, so no probe needs rebuilding from a surface:
//!
//! - BASE-STATELESS-NO-PRIOR (`reuse`): `[[request], [prior, request]]`, judged by
//!   `reuse::judge_pair` (the request alone, and after the prior on a kept-alive connection);
//! - `*-LIST-STABLE` (`list_stable`): the fresh reading's pages one per connection, then the
//!   family's other request and the middle reading's pages on one connection, then the last
//!   reading's pages one per connection, judged by `list_stable::judge_triple`.
//!
//! A shape that is neither is not a sequence this module judges (`Sequence::of` says `None`).
//! Pure: the caller sends the requests and hands over the answers.

use crate::case::Case;
use crate::list_stable::{judge_triple, ListKind, ListStableProbe};
use crate::observation::Observation;
use crate::reuse::{judge_pair, Judgement, ReuseProbe};
use crate::rules::connection::STATELESS_NO_PRIOR;
use crate::RuleId;

/// Which connection rule a sequence is kept for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SequenceRule {
    /// BASE-STATELESS-NO-PRIOR.
    Reuse,
    /// TOOLS-, RES- or PROMPTS-LIST-STABLE.
    List(ListKind),
}

impl SequenceRule {
    /// The connection rule named `rule`, if it is one.
    pub fn of(rule: &str) -> Option<SequenceRule> {
        if rule == STATELESS_NO_PRIOR.0 {
            return Some(SequenceRule::Reuse);
        }
        ListKind::ALL
            .into_iter()
            .find(|k| k.rule().0 == rule)
            .map(SequenceRule::List)
    }

    pub fn rule(self) -> RuleId {
        match self {
            SequenceRule::Reuse => STATELESS_NO_PRIOR,
            SequenceRule::List(k) => k.rule(),
        }
    }
}

/// A kept sequence: its rule and its requests by connection, when their shape is the one that
/// rule's probe sends.
#[derive(Clone, Debug, PartialEq)]
pub struct Sequence {
    pub rule: SequenceRule,
    /// (Read through `connections()`: `kept` indexes it, so it is fixed once checked.)
    connections: Vec<Vec<Case>>,
    /// The index of the kept-alive connection (the one carrying more than one request).
    kept: usize,
}

impl Sequence {
    /// `connections` kept for `rule`, or `None` when `rule` is no connection rule or the shape
    /// is not its probe's: exactly one connection carrying two requests or more, with a
    /// connection of one request before it (and, for a list, after it too).
    pub fn of(rule: &str, connections: Vec<Vec<Case>>) -> Option<Sequence> {
        let rule = SequenceRule::of(rule)?;
        let mut kept = connections.iter().enumerate().filter(|(_, c)| c.len() > 1);
        let (k, _) = kept.next()?;
        let singles_ok = connections
            .iter()
            .enumerate()
            .all(|(i, c)| i == k || c.len() == 1);
        let shape_ok = match rule {
            SequenceRule::Reuse => connections.len() == 2 && k == 1 && connections[1].len() == 2,
            SequenceRule::List(_) => k >= 1 && k + 1 < connections.len(),
        };
        (kept.next().is_none() && singles_ok && shape_ok).then_some(Sequence {
            rule,
            connections,
            kept: k,
        })
    }

    /// The requests, grouped by the connection that carries them, in the order sent.
    pub fn connections(&self) -> &[Vec<Case>] {
        &self.connections
    }

    /// The index of the kept-alive connection (sent through a pool that keeps it open).
    pub fn kept_alive(&self) -> usize {
        self.kept
    }

    /// The list triple a `*-LIST-STABLE` sequence was sent for: its first request (the
    /// fresh reading's first page) and the kept-alive connection's first (the family's other
    /// request). A replay reads the list again through it, following the cursors the target
    /// gives then (`ListStableProbe::next_page`): a stored cursor may have lapsed.
    pub fn list_probe(&self) -> Option<ListStableProbe> {
        match self.rule {
            SequenceRule::List(kind) => Some(self.probe_of(kind)),
            SequenceRule::Reuse => None,
        }
    }

    /// `list_probe` of a sequence kept for `kind`'s rule.
    fn probe_of(&self, kind: ListKind) -> ListStableProbe {
        // (`of` checked the shape: a list's first connection carries one request, the
        // kept-alive one two or more)
        ListStableProbe {
            kind,
            list: self.connections[0][0].clone(),
            other: self.connections[self.kept][0].clone(),
        }
    }

    /// Judge `answers` (one per request, in the connections' shape) with today's judges;
    /// `reused` says, per request, whether it travelled on a connection already open. A shape
    /// that does not match the requests' decides nothing.
    pub fn judge(&self, answers: &[Vec<Observation>], reused: &[Vec<bool>]) -> Judgement {
        if !self.same_shape(answers) || !self.same_shape(reused) {
            return Judgement::Undetermined;
        }
        let k = self.kept;
        let (kept, kept_answers) = (&self.connections[k], &answers[k]);
        match self.rule {
            SequenceRule::Reuse => {
                let probe = ReuseProbe {
                    context: context_left_out(&kept[1]),
                    prior: kept[0].clone(),
                    request: kept[1].clone(),
                };
                judge_pair(&probe, &answers[0][0], &kept_answers[1], reused[k][1])
            }
            SequenceRule::List(kind) => {
                let probe = self.probe_of(kind);
                let firsts = |r: std::ops::Range<usize>| -> Vec<Observation> {
                    answers[r].iter().map(|a| a[0].clone()).collect()
                };
                judge_triple(
                    &probe,
                    &firsts(0..k),
                    &kept_answers[0],
                    &kept_answers[1..],
                    reused[k][1..].iter().all(|r| *r),
                    &firsts(k + 1..answers.len()),
                )
            }
        }
    }

    /// Whether `per_request` holds one item per request, connection by connection.
    fn same_shape<T>(&self, per_request: &[Vec<T>]) -> bool {
        per_request.len() == self.connections.len()
            && per_request
                .iter()
                .zip(&self.connections)
                .all(|(x, c)| x.len() == c.len())
    }
}

/// The piece of context a BASE-STATELESS-NO-PRIOR request leaves out (for the finding's
/// words): the protocol version when its `_meta` names none, else the client capabilities.
fn context_left_out(request: &Case) -> &'static str {
    let body = String::from_utf8_lossy(&request.body);
    if body.contains(crate::case::META_PROTOCOL_VERSION) {
        "capabilities"
    } else {
        "protocol version"
    }
}

#[cfg(test)]
#[path = "connection_seq_tests.rs"]
mod tests;
