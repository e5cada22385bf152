//! What the rules learn about one request while they read it (`Findings`: defects with
//! the answers each mandates alone, tolerated answers, benign stimuli). The answer patterns
//! several rules share are in `answers`.

use super::answers::{header_mismatch, mismatch_answer};
use crate::message::Message;
use crate::request_id::RequestId;
use crate::rules::{self, RuleId};
use crate::rules::{level_of, Severity};
use crate::verdict::{Answer, Canonical, NamedVersions};
use smallvec::{smallvec, SmallVec};
use std::sync::OnceLock;

/// An answer set while the rules build it (the Verdict's own set type).
pub(crate) type Answers = crate::verdict::AnswerSet;

/// The answers one defect mandates alone: one, or two where a second sentence admits another
/// refusal (a version refusal beside the mismatch, a parser's bare 400, an empty `contents`).
pub(crate) type DefectAnswers = SmallVec<[Answer; 2]>;

/// One departure from a conformant request. It holds no canonical answer: only the defect
/// that leads gives one, and `Findings::lead` holds it (a defect is copied as the list grows,
/// and a canonical answer is most of a defect's size).
#[derive(Clone, Debug)]
pub(crate) struct Defect {
    /// The rule that says the request must be refused.
    pub reject: RuleId,
    /// The rule that says how a refusal looks.
    pub shape: RuleId,
    /// Whether `reject` is at a blocking level (`is_blocking`, asked once per defect).
    pub blocking: bool,
    /// The answers this defect mandates when it is alone (the first is canonical).
    pub answers: DefectAnswers,
    /// Position in the recommended canonical order (PRECEDENCE.md §5); lower goes first.
    pub priority: u8,
}

/// Everything the per-part checks learn about one request.
#[derive(Default)]
pub(crate) struct Findings {
    pub defects: SmallVec<[Defect; 4]>,
    /// The reference server's answer for the defect that leads: the first defect of least
    /// priority among the blocking ones, or among all when none blocks (PRECEDENCE.md §5).
    /// A defect leads exactly when, as it is found, no earlier one beats it (`could_lead_at`:
    /// the order is total, earlier first among equals), so the last defect found able to
    /// lead is the one that does, and only such a defect's answer is ever built.
    pub lead: Option<Canonical>,
    /// Answers that become acceptable because the spec leaves a point open (AMB-nn).
    pub tolerated: Answers,
    /// Rules exercised by benign inputs: the acceptable set must stay as if they were absent.
    pub benign: SmallVec<[RuleId; 4]>,
    /// When set, the spec allows any answer at all for this request (legacy MAY paths).
    pub anything_goes: bool,
    /// The versions the -32022 answers name (`Requested`), set where one is built: the
    /// Verdict's own (boxed: rare, and kept out of the struct every judge call fills).
    pub versions: Option<Box<NamedVersions>>,
}

/// Whether `rule` is at a blocking level (MUST-like), from a table built once: the judge asks
/// for every defect, and the rules table is a list.
pub(crate) fn is_blocking(rule: RuleId) -> bool {
    static BLOCKING: OnceLock<BlockingTable> = OnceLock::new();
    match BLOCKING.get_or_init(BlockingTable::new).get(rule) {
        Some(b) => b,
        None => level_of(rule).severity() == Severity::Blocking,
    }
}

/// Slots of the blocking table: a power of two, above twice the ids the judge emits.
const SLOTS: usize = 256;
// (a free slot ends every probe)
const _: () = assert!(rules::JUDGED_IDS.len() * 2 <= SLOTS);

/// The blocking level of every id the judge emits, open-addressed by `slot_of` (the ids
/// share their prefixes and differ at the end, the table is fixed, and no untrusted key
/// reaches it): one word of hashing and, nearly always, one pointer comparison per question.
struct BlockingTable([Option<(RuleId, bool)>; SLOTS]);

impl BlockingTable {
    fn new() -> BlockingTable {
        let mut slots = [None; SLOTS];
        for &id in rules::JUDGED_IDS {
            let mut i = slot_of(id);
            while slots[i].is_some_and(|(known, _)| known != id) {
                i = (i + 1) % SLOTS;
            }
            slots[i] = Some((id, level_of(id).severity() == Severity::Blocking));
        }
        BlockingTable(slots)
    }

    /// `rule`'s level when it is in the table.
    fn get(&self, rule: RuleId) -> Option<bool> {
        let mut i = slot_of(rule);
        loop {
            let (known, blocking) = self.0[i]?;
            // (the ids the judge passes are the table's own: the same pointer, no byte compare)
            if std::ptr::eq(known.0, rule.0) || known == rule {
                return Some(blocking);
            }
            i = (i + 1) % SLOTS;
        }
    }
}

/// A rule id's first slot, from its length and its last eight bytes read as one word.
fn slot_of(rule: RuleId) -> usize {
    let bytes = rule.0.as_bytes();
    let tail = match bytes.last_chunk::<8>() {
        Some(last) => *last,
        None => {
            let mut tail = [0u8; 8];
            tail[..bytes.len()].copy_from_slice(bytes);
            tail
        }
    };
    let h = (u64::from_le_bytes(tail) ^ bytes.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    // the top bits: the ones the multiplication mixed best (SLOTS = 2^7)
    (h >> (64 - SLOTS.trailing_zeros())) as usize
}

impl Findings {
    /// Whether a new defect at this level and `priority` could still give the canonical
    /// answer (no earlier defect beats it; see `lead`): when it cannot, its canonical answer
    /// is never built.
    fn could_lead_at(&self, blocking: bool, priority: u8) -> bool {
        !self.defects.iter().any(|d| {
            let earlier_blocks = d.blocking;
            (earlier_blocks || !blocking) && (d.priority <= priority || earlier_blocks != blocking)
        })
    }

    /// Record `d`, whose canonical answer is built only when `d` leads so far.
    pub fn push(&mut self, d: Defect, canonical: impl FnOnce() -> Canonical) {
        if self.could_lead_at(d.blocking, d.priority) {
            self.lead = Some(canonical());
        }
        self.defects.push(d);
    }

    /// A defect whose canonical answer (with its message) is built only when it could be the
    /// canonical one; `answer` is the answer the defect mandates alone.
    #[inline]
    pub fn defect_lazy(
        &mut self,
        reject: RuleId,
        shape: RuleId,
        priority: u8,
        answer: Answer,
        canonical: impl Fn() -> Canonical,
    ) {
        self.defect_with(reject, shape, priority, answer, &canonical);
    }

    /// `defect_lazy`, compiled once: the canonical answer is built (rarely) behind one
    /// indirect call instead of in a copy of this body per rule.
    #[inline(never)]
    fn defect_with(
        &mut self,
        reject: RuleId,
        shape: RuleId,
        priority: u8,
        answer: Answer,
        canonical: &dyn Fn() -> Canonical,
    ) {
        let blocking = is_blocking(reject);
        if self.could_lead_at(blocking, priority) {
            self.lead = Some(canonical());
        }
        self.defects.push(Defect {
            reject,
            shape,
            blocking,
            answers: smallvec![answer],
            priority,
        });
    }

    /// A 400/-32020 defect whose message is written only when it could be canonical.
    #[inline]
    pub fn mismatch(
        &mut self,
        reject: RuleId,
        shape: RuleId,
        priority: u8,
        id: &RequestId,
        message: impl Fn() -> Message,
    ) {
        self.defect_with(reject, shape, priority, mismatch_answer(), &|| {
            header_mismatch(id, message())
        });
    }

    /// Admit `a` beside whatever else the request gets. (Out of line, as `benign`: one
    /// compiled copy of the "add once" loop serves the three dozen rules that call it, not
    /// a copy in each of their paths through the instruction cache.)
    #[inline(never)]
    pub fn tolerate(&mut self, a: Answer) {
        if !self.tolerated.contains(&a) {
            self.tolerated.push(a);
        }
    }

    /// Note `r` as exercised by a benign input (once).
    #[inline(never)]
    pub fn benign(&mut self, r: RuleId) {
        if !self.benign.contains(&r) {
            self.benign.push(r);
        }
    }
}
