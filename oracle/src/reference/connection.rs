//! The connection mutant of the reference (`serve` runs it as `Variant::TrustsKnownConnection`,
//! named `trusts-known-connection`): a server that remembers the context a request on a
//! connection carried and fills it into later requests on the same connection that lack it,
//! breaking BASE-STATELESS-NO-PRIOR (oracle `reuse`, DEVIATIONS.md D-181). Not a row of the
//! mutant table: its answer depends on the connection, not on the request alone. Pure: the
//! server keeps the remembered context per connection and hands it in.

use crate::case::{Case, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION};
use serde_json::{Map, Value};

/// The name `serve --mutant` and the reports use.
pub const TRUSTS_KNOWN_CONNECTION: &str = "trusts-known-connection";

/// The context keys the mutant remembers.
const CONTEXT: [&str; 3] = [
    META_PROTOCOL_VERSION,
    META_CLIENT_CAPABILITIES,
    META_CLIENT_INFO,
];

/// A request with every piece of context is remembered in `known` (the connection's); one
/// that lacks some gets it from `known`, as if the client had sent it. Then the reference
/// answers the request.
pub fn trust_known_connection(case: &mut Case, known: &mut Option<Map<String, Value>>) {
    let Ok(mut body) = serde_json::from_slice::<Value>(&case.body) else {
        return;
    };
    let Some(meta) = body
        .get_mut("params")
        .and_then(|p| p.get_mut("_meta"))
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    if CONTEXT.iter().all(|k| meta.contains_key(*k)) {
        *known = Some(
            CONTEXT
                .iter()
                .filter_map(|k| Some((k.to_string(), meta.get(*k)?.clone())))
                .collect(),
        );
        return;
    }
    let Some(k) = known.as_ref() else {
        return;
    };
    for (key, v) in k {
        meta.entry(key.clone()).or_insert_with(|| v.clone());
    }
    // serializing a Value cannot fail (all keys are strings)
    case.body = serde_json::to_vec(&body).unwrap_or_default();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;
    use crate::reference::respond;
    use crate::reuse::{outcome, reuse_probes, Outcome};

    #[test]
    fn a_request_lacking_context_is_served_after_one_carrying_it() {
        let s = fixture::surface();
        for p in reuse_probes(&s) {
            let mut known = None;
            let mut fresh = p.request.clone();
            trust_known_connection(&mut fresh, &mut known);
            let answer = |c: &Case| outcome(&crate::reference::to_observation(&respond(c, &s)));
            assert_eq!(answer(&fresh), Outcome::Refused, "{}", p.context);
            let mut prior = p.prior.clone();
            trust_known_connection(&mut prior, &mut known);
            let mut after = p.request.clone();
            trust_known_connection(&mut after, &mut known);
            assert_eq!(answer(&after), Outcome::Served, "{}", p.context);
        }
    }
}
