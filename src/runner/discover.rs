//! Discovery: conformant requests (`server/discover`, the list methods following every
//! `nextCursor`, one `completion/complete`) that build a
//! target's `Surface`. What a target does not declare stays out of the surface, so the rules
//! that need it are "not observed", never failed and never passed.

use mcpdiff_oracle::client::conformant_case;
use mcpdiff_oracle::pages::ListPages;
use mcpdiff_oracle::{Capabilities, Observation, Surface, ToolDecl, TransportFailure};
use serde_json::{json, Value};
use std::future::Future;

/// What discovery learned, with notes for the report.
pub struct Discovered {
    pub surface: Surface,
    pub notes: Vec<String>,
    /// `server/discover` answered with a result (the endpoint speaks 2026-07-28).
    pub modern: bool,
}

/// The `result` object of a JSON-RPC success in `obs`, if any.
fn result_of(obs: &Observation) -> Option<&Value> {
    obs.http()?.rpc_response()?.get("result")
}

/// Run discovery with `send` (one request at a time; at most 10 pages per list).
pub async fn discover<F, Fut>(
    endpoint_path: &str,
    mut send: F,
) -> Result<Discovered, TransportFailure>
where
    F: FnMut(mcpdiff_oracle::Case) -> Fut,
    Fut: Future<Output = Observation>,
{
    let mut surface = Surface::minimal(endpoint_path);
    let mut notes = Vec::new();
    let obs = send(conformant_case(
        &surface,
        json!(1),
        "server/discover",
        json!({}),
    ))
    .await;
    if let Observation::Transport { failure } = &obs {
        return Err(failure.clone());
    }
    // an answer still coming at the per-case limit: the list methods would cost the same
    // limit each, and the run's time is better spent on cases
    if mcpdiff_oracle::undetermined::is_cut(&obs) {
        notes.push(format!(
            "server/discover did not finish within the per-case limit ({}); testing with the \
             minimal surface",
            obs.summary()
        ));
        return Ok(Discovered {
            surface,
            notes,
            modern: false,
        });
    }
    let discover = result_of(&obs).cloned();
    let modern = discover.is_some();
    match &discover {
        Some(r) => {
            if let Some(v) = r.get("supportedVersions").and_then(Value::as_array) {
                let versions: Vec<String> = v
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect();
                if !versions.is_empty() {
                    surface.supported_versions = versions;
                }
            }
            let caps = r.get("capabilities");
            let has = |k: &str| caps.and_then(|c| c.get(k)).is_some();
            surface.capabilities = Capabilities {
                tools: has("tools"),
                resources: has("resources"),
                prompts: has("prompts"),
                completions: has("completions"),
                logging: has("logging"),
                extensions: caps
                    .and_then(|c| c.get("extensions"))
                    .and_then(Value::as_object)
                    .is_some_and(|m| !m.is_empty()),
            };
        }
        None => notes.push(format!(
            "server/discover did not answer with a result ({}); assuming only 2026-07-28 and \
             probing the list methods anyway",
            obs.summary()
        )),
    }
    // probe lists even when a capability is missing: a server may list without advertising
    let mut id = 2;
    // the first prompt argument or template variable a completion can be asked for
    let mut complete_ref: Option<Value> = None;
    for (method, key) in [
        ("tools/list", "tools"),
        ("resources/list", "resources"),
        ("resources/templates/list", "resourceTemplates"),
        ("prompts/list", "prompts"),
    ] {
        let mut cursor: Option<String> = None;
        // the cursors this list's pages carried and its first page's cacheScope: what
        // PAGE-STABLE and CACHE-SCOPE-PAGES compare a later page with (`oracle::pages`)
        let mut pages = ListPages {
            method: method.to_string(),
            cursors: Vec::new(),
            scope: None,
        };
        for page in 0..10 {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            id += 1;
            let obs = send(conformant_case(&surface, json!(id), method, params)).await;
            let Some(result) = result_of(&obs) else {
                if cursor.is_none() {
                    notes.push(format!("{method}: {}", obs.summary()));
                }
                break;
            };
            if page == 0 {
                pages.scope = result
                    .get("cacheScope")
                    .and_then(Value::as_str)
                    .map(str::to_string);
            }
            let items = result
                .get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            add_items(&mut surface, key, &items);
            if complete_ref.is_none() {
                complete_ref = completion_ref(key, &items);
            }
            if !discover.is_some_and_capability(key) && !items.is_empty() {
                notes.push(format!(
                    "{method} answers although server/discover did not advertise it"
                ));
            }
            cursor = result
                .get("nextCursor")
                .and_then(Value::as_str)
                .map(str::to_string);
            match &cursor {
                Some(c) => pages.cursors.push(c.clone()),
                None => break,
            }
        }
        if !pages.cursors.is_empty() {
            surface.pagination.lists.push(pages);
        }
    }
    // «Servers that support completions MUST declare the `completions` capability»: support
    // is a completion answered with a result, whatever discover declared (D-143)
    if let Some(params) = complete_ref {
        id += 1;
        let obs = send(conformant_case(
            &surface,
            json!(id),
            "completion/complete",
            params,
        ))
        .await;
        surface.completes = result_of(&obs).is_some();
    }
    Ok(Discovered {
        surface,
        notes,
        modern,
    })
}

/// `completion/complete` params for the first prompt argument (`prompts`) or template
/// variable (`resourceTemplates`) among `items`, with an empty value.
fn completion_ref(key: &str, items: &[Value]) -> Option<Value> {
    let (reference, argument) = items.iter().find_map(|it| match key {
        "prompts" => {
            let name = it.get("name")?.as_str()?;
            let arg = it.get("arguments")?.get(0)?.get("name")?.as_str()?;
            Some((json!({"type": "ref/prompt", "name": name}), arg.to_string()))
        }
        "resourceTemplates" => {
            let uri = it.get("uriTemplate")?.as_str()?;
            let (_, rest) = uri.split_once('{')?;
            let (var, _) = rest.split_once('}')?;
            let var = var.trim_start_matches(['+', '#', '/', '.', ';', '?', '&']);
            Some((json!({"type": "ref/resource", "uri": uri}), var.to_string()))
        }
        _ => None,
    })?;
    Some(json!({"ref": reference, "argument": {"name": argument, "value": ""}}))
}

trait CapabilityProbe {
    fn is_some_and_capability(&self, list_key: &str) -> bool;
}

impl CapabilityProbe for Option<Value> {
    fn is_some_and_capability(&self, list_key: &str) -> bool {
        let cap = match list_key {
            "tools" => "tools",
            "prompts" => "prompts",
            _ => "resources",
        };
        self.as_ref()
            .and_then(|r| r.get("capabilities"))
            .and_then(|c| c.get(cap))
            .is_some()
    }
}

fn add_items(surface: &mut Surface, key: &str, items: &[Value]) {
    for it in items {
        match key {
            "tools" => {
                let Some(name) = it.get("name").and_then(Value::as_str) else {
                    continue;
                };
                let schema = it
                    .get("inputSchema")
                    .cloned()
                    .unwrap_or(json!({"type": "object"}));
                let read_only = it
                    .get("annotations")
                    .and_then(|a| a.get("readOnlyHint"))
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                let tool = ToolDecl::new(name, schema, read_only);
                surface.tools.push(match it.get("outputSchema") {
                    Some(out) => tool.with_output_schema(out.clone()),
                    None => tool,
                });
            }
            "resources" => {
                if let Some(u) = it.get("uri").and_then(Value::as_str) {
                    surface.resources.push(u.to_string());
                }
            }
            "resourceTemplates" => {
                if let Some(u) = it.get("uriTemplate").and_then(Value::as_str) {
                    surface.resource_templates.push(u.to_string());
                }
            }
            _ => {
                if let Some(n) = it.get("name").and_then(Value::as_str) {
                    surface.prompts.push(n.to_string());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_completion_names_the_first_prompt_argument_or_template_variable() {
        let prompts = [
            json!({"name": "bare"}),
            json!({"name": "code_review", "arguments": [{"name": "code"}]}),
        ];
        assert_eq!(
            completion_ref("prompts", &prompts),
            Some(json!({"ref": {"type": "ref/prompt", "name": "code_review"},
                        "argument": {"name": "code", "value": ""}}))
        );
        let templates = [json!({"uriTemplate": "file:///logs/{+day}.log"})];
        assert_eq!(
            completion_ref("resourceTemplates", &templates),
            Some(
                json!({"ref": {"type": "ref/resource", "uri": "file:///logs/{+day}.log"},
                        "argument": {"name": "day", "value": ""}})
            )
        );
        assert_eq!(completion_ref("tools", &[json!({"name": "t"})]), None);
        assert_eq!(completion_ref("prompts", &[json!({"name": "bare"})]), None);
    }
}
