//! A part of a Verdict read with the Verdict's `NamedVersions`: a -32022 answer holds only
//! which versions it may name (`Requested`), so it serializes, and compares with an answer
//! of another Verdict (and Verdicts with each other), through `Named` (its `Display` is in
//! `crate::describe`). Within one Verdict answers compare as they are: the versions are the
//! same for all of them.

use super::{
    Answer, DataRule, Demand, Expectation, Lint, NamedVersions, Requested, StatusSet, Verdict,
};
use crate::rules::RuleId;
use serde::{Serialize, Serializer};

/// `item` with the versions of the Verdict it belongs to (`None`: that Verdict names none).
#[derive(Debug)]
pub struct Named<'v, T: ?Sized> {
    pub item: &'v T,
    pub versions: Option<&'v NamedVersions>,
}

// (by hand: a derive would ask `T: Copy`, and only references are copied)
impl<T: ?Sized> Clone for Named<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Named<'_, T> {}

impl<'v, T: ?Sized> Named<'v, T> {
    pub fn new(item: &'v T, versions: Option<&'v NamedVersions>) -> Named<'v, T> {
        Named { item, versions }
    }

    /// Another part read with the same versions.
    pub fn with<U: ?Sized>(&self, item: &'v U) -> Named<'v, U> {
        Named::new(item, self.versions)
    }
}

/// Equal when they admit the same answers: a -32022 refusal's versions compared as texts.
impl PartialEq for Named<'_, Answer> {
    fn eq(&self, other: &Self) -> bool {
        match (self.item, other.item) {
            (
                Answer::RpcError {
                    status,
                    code,
                    data: DataRule::UnsupportedVersion { requested },
                },
                Answer::RpcError {
                    status: other_status,
                    code: other_code,
                    data:
                        DataRule::UnsupportedVersion {
                            requested: other_requested,
                        },
                },
            ) => {
                status == other_status
                    && code == other_code
                    && requested
                        .texts(self.versions)
                        .eq(other_requested.texts(other.versions))
            }
            (a, b) => a == b,
        }
    }
}

/// Equal when they are about the same rule and demand the same (answers as `Named` ones).
impl PartialEq for Named<'_, Expectation> {
    fn eq(&self, other: &Self) -> bool {
        self.item.rule == other.item.rule
            && match (&self.item.demand, &other.item.demand) {
                (Demand::OneOf(x), Demand::OneOf(y)) => {
                    x.len() == y.len()
                        && x.iter()
                            .zip(y.iter())
                            .all(|(a, b)| self.with(a) == other.with(b))
                }
                (Demand::Lint(x), Demand::Lint(y)) => x == y,
                _ => false,
            }
    }
}

/// Verdicts are equal when they list the same expectations (the versions -32022 answers
/// name compared as texts) and the same canonical answer.
impl PartialEq for Verdict {
    fn eq(&self, other: &Verdict) -> bool {
        self.canonical == other.canonical && {
            let mut mine = self.expectations();
            let mut theirs = other.expectations();
            loop {
                match (mine.next(), theirs.next()) {
                    (None, None) => break true,
                    (Some(x), Some(y)) if self.named(&*x) == other.named(&*y) => {}
                    _ => break false,
                }
            }
        }
    }
}

// The serialized forms: mirrors of the types with the versions' texts in place of
// `Requested`, under the same names and in the same order, so the JSON is what a derived
// `Serialize` of the types holding the texts gave (stored corpus verdicts are compared
// with it byte for byte).

/// As `{"rule": ..., "demand": ...}`.
impl Serialize for Named<'_, Expectation> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let demand = match &self.item.demand {
            Demand::OneOf(set) => DemandOut::OneOf(self.with(&set[..])),
            Demand::Lint(l) => DemandOut::Lint(l),
        };
        ExpectationOut {
            rule: self.item.rule,
            demand,
        }
        .serialize(s)
    }
}

#[derive(Serialize)]
#[serde(rename = "Expectation")]
struct ExpectationOut<'v> {
    rule: RuleId,
    demand: DemandOut<'v>,
}

#[derive(Serialize)]
#[serde(rename = "Demand")]
enum DemandOut<'v> {
    OneOf(Named<'v, [Answer]>),
    Lint(&'v Lint),
}

/// As the list of its answers.
impl Serialize for Named<'_, [Answer]> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.item.iter().map(|a| self.with(a)))
    }
}

/// As `Answer` would derive it, a -32022 refusal's `requested` the list of its texts.
impl Serialize for Named<'_, Answer> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let out = match self.item {
            Answer::RpcError { status, code, data } => AnswerOut::RpcError {
                status: *status,
                code: *code,
                data: match data {
                    DataRule::None => DataOut::None,
                    DataRule::UnsupportedVersion { requested } => DataOut::UnsupportedVersion {
                        requested: self.with(requested),
                    },
                    DataRule::RequiredCapabilities => DataOut::RequiredCapabilities,
                },
            },
            Answer::RpcResult => AnswerOut::RpcResult,
            Answer::OpenStream => AnswerOut::OpenStream,
            Answer::Accepted => AnswerOut::Accepted,
            Answer::HttpStatus { status } => AnswerOut::HttpStatus { status: *status },
            Answer::AnyError => AnswerOut::AnyError,
            Answer::NotAnError => AnswerOut::NotAnError,
            Answer::EmptyContents => AnswerOut::EmptyContents,
        };
        out.serialize(s)
    }
}

#[derive(Serialize)]
#[serde(rename = "Answer")]
enum AnswerOut<'v> {
    RpcError {
        status: StatusSet,
        code: i32,
        data: DataOut<'v>,
    },
    RpcResult,
    OpenStream,
    Accepted,
    HttpStatus {
        status: StatusSet,
    },
    AnyError,
    NotAnError,
    EmptyContents,
}

#[derive(Serialize)]
#[serde(rename = "DataRule")]
enum DataOut<'v> {
    None,
    UnsupportedVersion { requested: Named<'v, Requested> },
    RequiredCapabilities,
}

/// As the list of the texts it names.
impl Serialize for Named<'_, Requested> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.item.texts(self.versions))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Canonical, Verdict};
    use super::*;

    fn upv(header: bool, body: bool) -> Answer {
        Answer::RpcError {
            status: StatusSet::Exact(400),
            code: -32022,
            data: DataRule::UnsupportedVersion {
                requested: Requested::new(header, body),
            },
        }
    }

    fn verdict(answers: &[Answer], header: &str, body: &str) -> Verdict {
        let e = Expectation {
            rule: crate::rules::PV_MISMATCH,
            demand: Demand::OneOf(answers.iter().copied().collect()),
        };
        Verdict::new(vec![e], Canonical::Dispatch).with_versions(Some(NamedVersions {
            header: header.into(),
            body: body.into(),
        }))
    }

    #[test]
    fn requested_versions_serialize_as_the_texts_header_first() {
        let v = verdict(
            &[upv(true, true), upv(false, true)],
            "1999-01-01",
            "2099-01-01",
        );
        let json = serde_json::to_string(&v.serialized_expectations()).unwrap();
        let refusal = |requested: &str| {
            format!(
                r#"{{"RpcError":{{"status":{{"Exact":400}},"code":-32022,"data":{{"UnsupportedVersion":{{"requested":{requested}}}}}}}}}"#
            )
        };
        let expected = format!(
            r#"[{{"rule":"{}","demand":{{"OneOf":[{},{}]}}}}]"#,
            crate::rules::PV_MISMATCH.0,
            refusal(r#"["1999-01-01","2099-01-01"]"#),
            refusal(r#"["2099-01-01"]"#),
        );
        assert_eq!(json, expected);
    }

    #[test]
    fn answers_of_two_verdicts_compare_by_the_texts_they_name() {
        let header = verdict(&[upv(true, false)], "1999-01-01", "");
        let body = verdict(&[upv(false, true)], "", "1999-01-01");
        let other = verdict(&[upv(true, false)], "2099-01-01", "");
        assert_eq!(header, body);
        assert_ne!(header, other);
    }
}
