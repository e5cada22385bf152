//! The list mutants of the reference (`serve` runs them as `Variant::ListSideEffect`): a
//! server whose list shrinks on a connection once that connection has carried the family's
//! other request (a `tools/call`, a `resources/read`, a `prompts/get`): the next `tools/list`
//! (`resources/list`, `prompts/list`) on it leaves out its first item, breaking
//! TOOLS-LIST-STABLE (RES-LIST-STABLE, PROMPTS-LIST-STABLE; oracle `list_stable`, DEVIATIONS.md
//! D-150..D-152). Not rows of the mutant table: the answer depends on the connection. Pure: the
//! server keeps the flag per connection and hands it in.

use crate::case::Case;
use crate::list_stable::ListKind;
use crate::reference::{Response, ResponseBody};
use serde_json::Value;

/// The names `serve --mutant` and the reports use, one per list.
pub fn mutant_name(kind: ListKind) -> &'static str {
    match kind {
        ListKind::Tools => "tools-list-side-effect",
        ListKind::Resources => "resources-list-side-effect",
        ListKind::Prompts => "prompts-list-side-effect",
    }
}

/// The kind whose mutant is named `name`.
pub fn by_name(name: &str) -> Option<ListKind> {
    ListKind::ALL.into_iter().find(|k| mutant_name(*k) == name)
}

/// The JSON-RPC method of a request body.
fn method_of(case: &Case) -> Option<String> {
    let v: Value = serde_json::from_slice(&case.body).ok()?;
    v.get("method").and_then(Value::as_str).map(str::to_string)
}

/// Note `case` on the connection (`touched` is the connection's flag: it carried the family's
/// other request) and, once touched, drop the first item of the list `resp` answers with.
pub fn side_effect(kind: ListKind, case: &Case, resp: &mut Response, touched: &mut bool) {
    let method = method_of(case);
    if method.as_deref() == Some(kind.other_method()) {
        *touched = true;
        return;
    }
    if !*touched || method.as_deref() != Some(kind.list_method()) {
        return;
    }
    let key = kind.keys().0;
    let drop_first = |v: &mut Value| {
        if let Some(items) = v
            .get_mut("result")
            .and_then(|r| r.get_mut(key))
            .and_then(Value::as_array_mut)
        {
            if !items.is_empty() {
                items.remove(0);
            }
        }
    };
    match &mut resp.body {
        ResponseBody::Json(v) => drop_first(v),
        ResponseBody::Sse { events, .. } => events.iter_mut().for_each(drop_first),
        ResponseBody::Stream { events, .. } => events
            .iter_mut()
            .filter_map(|e| e.data.as_mut())
            .for_each(drop_first),
        ResponseBody::Empty | ResponseBody::Raw(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;
    use crate::list_stable::{list_stable_probes, members};
    use crate::reference::{respond, to_observation};

    #[test]
    fn each_list_shrinks_after_its_other_request_only() {
        let s = fixture::surface();
        for p in list_stable_probes(&s) {
            assert_eq!(by_name(mutant_name(p.kind)), Some(p.kind));
            let serve = |c: &Case, touched: &mut bool| {
                let mut r = respond(c, &s);
                side_effect(p.kind, c, &mut r, touched);
                members(p.kind, &[to_observation(&r)]).map(|m| m.len())
            };
            let mut touched = false;
            let before = serve(&p.list, &mut touched);
            serve(&p.other, &mut touched);
            let after = serve(&p.list, &mut touched);
            assert_eq!(after.map(|n| n + 1), before, "{:?}", p.kind);
            // another family's request touches nothing
            for q in list_stable_probes(&s).iter().filter(|q| q.kind != p.kind) {
                let mut t = false;
                let mut r = respond(&q.other, &s);
                side_effect(p.kind, &q.other, &mut r, &mut t);
                assert!(!t);
            }
        }
    }
}
