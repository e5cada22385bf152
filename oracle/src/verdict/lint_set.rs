//! `LintSet`: the per-answer lints of a Verdict, kept as one bit each (plus the request id the
//! two id lints echo) and rendered as `(RuleId, Lint)` pairs when read. Nearly every request
//! carries the same dozen lints; building each as a full `Expectation` cost the judge more
//! than the rules that decide the Verdict.

use super::Lint;
use crate::content::ContentSet;
use crate::request_id::RequestId;
use crate::rules::{self, RuleId};
use crate::stream::{StreamLint, StreamRule, StreamScope};

/// One data-free lint, or the id lints (which render from `LintSet::echo`). The order of the
/// variants is the order a Verdict lists its lints in: every list the judge builds is in this
/// order, so a set of bits renders it exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum LintKind {
    NoSessionId,
    AllowOn405,
    NoUndefinedReservedCode,
    NoRetiredCode,
    NoLegacyRangeCode,
    ErrorShape,
    RequestContentType,
    SseXAccel,
    SseNoRequests,
    ResultType,
    /// `ResultIdEcho` then `ErrorIdEcho`, both present exactly when `LintSet::echo` is set.
    IdEcho,
    ServerInfo,
    NoResponseToNotification,
    // base-protocol shape and multi-round requests (`crate::shape`; issue 23)
    ErrorInt,
    NoNewReservedCode,
    MetaKeys,
    TraceContext,
    KnownResultType,
    InputRequiredUnsupported,
    InputRequiredCarries,
    InputRequestTypes,
    NotificationNoId,
    ExtensionIds,
    JsonRpcVersion,
    ResultField,
    InputKeysUnique,
    CapabilityCodeMeaning,
    MissingCapabilityShape,
    NoUndeclaredInput,
    ExtensionFallback,
    /// LOG-CAP-DECLARE (a target that did not declare `logging`, a request with a log level).
    NoUndeclaredLog,
}

impl LintKind {
    /// Every kind, in listing order.
    const ALL: [LintKind; 31] = [
        LintKind::NoSessionId,
        LintKind::AllowOn405,
        LintKind::NoUndefinedReservedCode,
        LintKind::NoRetiredCode,
        LintKind::NoLegacyRangeCode,
        LintKind::ErrorShape,
        LintKind::RequestContentType,
        LintKind::SseXAccel,
        LintKind::SseNoRequests,
        LintKind::ResultType,
        LintKind::IdEcho,
        LintKind::ServerInfo,
        LintKind::NoResponseToNotification,
        LintKind::ErrorInt,
        LintKind::NoNewReservedCode,
        LintKind::MetaKeys,
        LintKind::TraceContext,
        LintKind::KnownResultType,
        LintKind::InputRequiredUnsupported,
        LintKind::InputRequiredCarries,
        LintKind::InputRequestTypes,
        LintKind::NotificationNoId,
        LintKind::ExtensionIds,
        LintKind::JsonRpcVersion,
        LintKind::ResultField,
        LintKind::InputKeysUnique,
        LintKind::CapabilityCodeMeaning,
        LintKind::MissingCapabilityShape,
        LintKind::NoUndeclaredInput,
        LintKind::ExtensionFallback,
        LintKind::NoUndeclaredLog,
    ];

    fn bit(self) -> u32 {
        1 << self as u8
    }

    /// The rule and lint of a kind; `None` for `IdEcho` (rendered from the id). `caps` is the
    /// set's declared client capabilities, the data of the capability lints.
    fn render(self, caps: u8) -> Option<(RuleId, Lint)> {
        Some(match self {
            LintKind::NoSessionId => (rules::BC_SESSION, Lint::NoSessionId),
            LintKind::AllowOn405 => (rules::BC_GET_DELETE, Lint::AllowOn405),
            LintKind::NoUndefinedReservedCode => {
                (rules::ERRCODE_RESERVED, Lint::NoUndefinedReservedCode)
            }
            LintKind::NoRetiredCode => (rules::ERRCODE_RETIRED, Lint::NoRetiredCode),
            LintKind::NoLegacyRangeCode => (rules::ERRCODE_LEGACY, Lint::NoLegacyRangeCode),
            LintKind::ErrorShape => (rules::ERROR_SHAPE, Lint::ErrorShape),
            LintKind::RequestContentType => (rules::REQ_CT, Lint::RequestContentType),
            LintKind::SseXAccel => (rules::SSE_XACCEL, Lint::SseXAccel),
            LintKind::SseNoRequests => (rules::SSE_NO_REQUESTS, Lint::SseNoRequests),
            LintKind::ResultType => (rules::RESULTTYPE, Lint::ResultType),
            LintKind::IdEcho => return None,
            LintKind::ServerInfo => (rules::SERVERINFO, Lint::ServerInfo),
            LintKind::NoResponseToNotification => {
                (rules::NOTIF_NO_RESPONSE, Lint::NoResponseToNotification)
            }
            LintKind::ErrorInt => (rules::ERROR_INT, Lint::ErrorInt),
            LintKind::NoNewReservedCode => (rules::ERRCODE_APP_RANGE, Lint::NoNewReservedCode),
            LintKind::MetaKeys => (rules::META_KEYS, Lint::MetaKeys),
            LintKind::TraceContext => (rules::TRACE_FORMAT, Lint::TraceContext),
            LintKind::KnownResultType => (rules::RESULTTYPE_SET, Lint::KnownResultType),
            LintKind::InputRequiredUnsupported => {
                (rules::MRTR_ONLY_SUPPORTED, Lint::InputRequiredUnsupported)
            }
            LintKind::InputRequiredCarries => (rules::MRTR_ATLEASTONE, Lint::InputRequiredCarries),
            LintKind::InputRequestTypes => (rules::MRTR_VALUE_TYPES, Lint::InputRequestTypes),
            LintKind::NotificationNoId => (rules::NOTIF_NO_ID, Lint::NotificationNoId),
            LintKind::ExtensionIds => (rules::VER_EXT_IDS, Lint::ExtensionIds),
            LintKind::JsonRpcVersion => (rules::JSONRPC, Lint::JsonRpcVersion),
            LintKind::ResultField => (rules::RESULT_FIELD, Lint::ResultField),
            LintKind::InputKeysUnique => (rules::MRTR_KEYS_UNIQUE, Lint::InputKeysUnique),
            LintKind::CapabilityCodeMeaning => (
                rules::ERRCODE_MEANING,
                Lint::CapabilityCodeMeaning { declared: caps },
            ),
            LintKind::MissingCapabilityShape => (rules::MISSING_CAP, Lint::MissingCapabilityShape),
            LintKind::NoUndeclaredInput => (
                rules::MRTR_NO_UNDECLARED,
                Lint::NoUndeclaredInput { declared: caps },
            ),
            LintKind::ExtensionFallback => (rules::VER_EXT_FALLBACK, Lint::ExtensionFallback),
            LintKind::NoUndeclaredLog => (rules::LOG_CAP_DECLARE, Lint::NoUndeclaredLog),
        })
    }
}

/// The per-answer lints of one Verdict: a bit per data-free kind, and the request id the id
/// lints name (their presence is the id's: no bit of their own to keep in step).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct LintSet {
    bits: u32,
    /// The id `ResultIdEcho` and `ErrorIdEcho` name (`may_omit` is always false, D-32).
    echo: Option<RequestId>,
    /// The request's progress token (`StreamScope::token`).
    progress: Option<RequestId>,
    /// `StreamScope::log_level` and `StreamScope::listen`, as `LOG_LEVEL` and `LISTEN`.
    stream_flags: u8,
    /// `StreamScope::filter` (a listen request's notification filter).
    listen_filter: u8,
    /// `StreamScope::min_level`.
    min_level: Option<u8>,
    /// The stream rules that bind the request (bits of `StreamRule::bit`), listed after
    /// every other lint; their scope's id is `echo`.
    stream_bits: u16,
    /// The content checks (`Lint::Content`), listed after every other lint.
    content: ContentSet,
    /// The client capabilities the request declared (`shape::capabilities` bits), the data
    /// of the capability lints.
    caps: u8,
}

const LOG_LEVEL: u8 = 1;
const LISTEN: u8 = 2;

impl LintSet {
    /// Add a data-free lint (`IdEcho` comes with its id, through `echo`).
    pub fn insert(&mut self, k: LintKind) {
        debug_assert_ne!(k, LintKind::IdEcho);
        self.bits |= k.bit();
    }

    /// Drop a data-free lint (a content check that names the same omission more precisely
    /// takes its place).
    pub fn remove(&mut self, k: LintKind) {
        self.bits &= !k.bit();
    }

    /// Record the client capabilities the request declared (`shape::capabilities` bits).
    pub fn declared(&mut self, caps: u8) {
        self.caps = caps;
    }

    /// Add content checks.
    pub fn insert_content(&mut self, set: ContentSet) {
        self.content = ContentSet::from_bits(self.content.bits() | set.bits());
    }

    /// Add the two id lints for a request with id `id`.
    pub fn echo(&mut self, id: &RequestId) {
        self.echo = Some(id.clone());
    }

    /// Add the stream rules binding a request with `scope` (`crate::stream`).
    /// The scope's id is the one given to `echo`; `token`, `log_level` and `listen` are
    /// `StreamScope`'s.
    pub fn stream(
        &mut self,
        token: Option<RequestId>,
        log_level: bool,
        listen: bool,
        filter: u8,
        min_level: Option<u8>,
    ) {
        self.stream_bits =
            crate::stream::rules_for(token.is_some(), log_level, listen, min_level.is_some());
        // the stream rules read only the notification types (the validity bit is the
        // request's shape, read by the judge; stored Verdicts keep their filter)
        self.listen_filter = filter & !crate::listen_filter::FILTER_VALID;
        self.min_level = min_level;
        self.stream_flags = (u8::from(log_level) * LOG_LEVEL) | (u8::from(listen) * LISTEN);
        self.progress = token;
    }

    /// Keep the lints whose rule is in `keep` (the two id lints are kept or dropped
    /// together: `keep` names both or neither).
    pub fn retain_rules(&mut self, keep: &[RuleId]) {
        self.content.retain_rules(keep);
        for k in LintKind::ALL {
            match k.render(0) {
                Some((rule, _)) if !keep.contains(&rule) => self.bits &= !k.bit(),
                Some(_) => {}
                None => {
                    if !(keep.contains(&rules::RESULT_ID) && keep.contains(&rules::ERROR_ID)) {
                        self.echo = None;
                    }
                }
            }
        }
        for r in StreamRule::ALL {
            if !keep.contains(&r.rule_id()) {
                self.stream_bits &= !r.bit();
            }
        }
    }

    /// Each lint with its rule, in listing order.
    pub fn iter(&self) -> Lints<'_> {
        let echo_bit = if self.echo.is_some() {
            LintKind::IdEcho.bit()
        } else {
            0
        };
        Lints {
            left: self.bits | echo_bit,
            echo: self.echo.as_ref(),
            error_id_next: false,
            set: self,
            stream_left: self.stream_bits,
            content: self.content.iter(),
        }
    }
}

/// The lints of a `LintSet`, rendered one by one.
pub(crate) struct Lints<'a> {
    /// The kinds not yet rendered, one bit each.
    left: u32,
    echo: Option<&'a RequestId>,
    /// `ResultIdEcho` was the last one rendered: `ErrorIdEcho` follows.
    error_id_next: bool,
    set: &'a LintSet,
    /// The stream rules not yet rendered, one bit each.
    stream_left: u16,
    /// The content checks, rendered after the kinds.
    content: crate::content::ContentIter,
}

impl Iterator for Lints<'_> {
    type Item = (RuleId, Lint);

    fn next(&mut self) -> Option<(RuleId, Lint)> {
        if std::mem::take(&mut self.error_id_next) {
            let id = self.echo?.clone();
            return Some((
                rules::ERROR_ID,
                Lint::ErrorIdEcho {
                    id,
                    may_omit: false,
                },
            ));
        }
        let Some(&k) = LintKind::ALL.get(self.left.trailing_zeros() as usize) else {
            if let Some(c) = self.content.next() {
                return Some((c.rule(), Lint::Content(c)));
            }
            return self.next_stream();
        };
        self.left &= self.left - 1;
        match k.render(self.set.caps) {
            Some(rendered) => Some(rendered),
            None => {
                self.error_id_next = true;
                Some((rules::RESULT_ID, Lint::ResultIdEcho(self.echo?.clone())))
            }
        }
    }
}

impl Lints<'_> {
    /// The next stream lint, after every other one.
    #[cold]
    fn next_stream(&mut self) -> Option<(RuleId, Lint)> {
        let rule = *StreamRule::ALL.get(self.stream_left.trailing_zeros() as usize)?;
        self.stream_left &= self.stream_left - 1;
        let set = self.set;
        let scope = StreamScope {
            id: set.echo.clone(),
            token: set.progress.clone(),
            log_level: set.stream_flags & LOG_LEVEL != 0,
            listen: set.stream_flags & LISTEN != 0,
            filter: set.listen_filter,
            min_level: set.min_level,
        };
        let lint = StreamLint { rule, scope };
        Some((rule.rule_id(), Lint::Stream(Box::new(lint))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lints_render_in_listing_order_with_both_id_lints() {
        let mut set = LintSet::default();
        set.insert(LintKind::ServerInfo);
        set.echo(&RequestId::from(7));
        set.insert(LintKind::NoSessionId);
        let rules: Vec<RuleId> = set.iter().map(|(r, _)| r).collect();
        assert_eq!(
            rules,
            [
                rules::BC_SESSION,
                rules::RESULT_ID,
                rules::ERROR_ID,
                rules::SERVERINFO
            ]
        );
        let lints: Vec<Lint> = set.iter().map(|(_, l)| l).collect();
        assert_eq!(lints[1], Lint::ResultIdEcho(RequestId::from(7)));
        assert_eq!(
            lints[2],
            Lint::ErrorIdEcho {
                id: RequestId::from(7),
                may_omit: false
            }
        );
    }

    #[test]
    fn retaining_rules_keeps_the_id_lints_together() {
        let mut set = LintSet::default();
        set.insert(LintKind::NoSessionId);
        set.insert(LintKind::ErrorShape);
        set.echo(&RequestId::from(1));
        set.retain_rules(&[rules::ERROR_SHAPE, rules::RESULT_ID, rules::ERROR_ID]);
        let rules: Vec<RuleId> = set.iter().map(|(r, _)| r).collect();
        assert_eq!(
            rules,
            [rules::ERROR_SHAPE, rules::RESULT_ID, rules::ERROR_ID]
        );
        set.retain_rules(&[rules::ERROR_SHAPE]);
        assert_eq!(set.iter().count(), 1);
        assert_eq!(set, {
            let mut only = LintSet::default();
            only.insert(LintKind::ErrorShape);
            only
        });
    }
}
