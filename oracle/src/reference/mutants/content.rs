//! The content rewrites: each takes a result the reference gives and breaks one thing it
//! publishes (`crate::content`), leaving every other member as the reference gives it.

use super::super::response::Response;
use super::answer::{each, Answered};
use serde_json::{json, Value};

/// Apply `f` to the `result` object of every success in the answer.
fn each_result(r: &mut Response, f: impl Fn(&mut serde_json::Map<String, Value>)) {
    each(r, "result", |m| {
        if let Some(res) = m.get_mut("result").and_then(Value::as_object_mut) {
            f(res);
        }
    });
}

pub(super) fn discover_no_versions(a: &Answered, r: &mut Response) {
    if a.method() == "server/discover" {
        each_result(r, |res| {
            res.remove("supportedVersions");
        });
    }
}

pub(super) fn discover_no_serverinfo(a: &Answered, r: &mut Response) {
    if a.method() == "server/discover" {
        each_result(r, |res| {
            res.remove("_meta");
        });
    }
}

pub(super) fn no_cache_hints(_: &Answered, r: &mut Response) {
    each_result(r, |res| {
        res.remove("ttlMs");
        res.remove("cacheScope");
    });
}

pub(super) fn negative_ttl(_: &Answered, r: &mut Response) {
    each_result(r, |res| {
        if res.contains_key("ttlMs") {
            res.insert("ttlMs".into(), json!(-1));
        }
    });
}
