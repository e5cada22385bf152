//! A conformant request rendered straight to bytes: exactly what the oracle's
//! `client::conformant_case` builds (which stays the definition), without building the body
//! as a JSON tree first, cloning the parameters into it and serializing it again, and with
//! each tool's mirrored-header list looked up once per surface instead of per case
//! (`conformant_case` was ~18% of the client's instructions per case).
//!
//! `tests::renders_what_the_conformant_client_builds` compares the two byte for byte over
//! the generator's whole call mix, on surfaces that exercise every header rule.

use mcpdiff_oracle::annotations::{extract, header_text, Extracted};
use mcpdiff_oracle::case::MODERN_VERSION;
use mcpdiff_oracle::client::request_meta;
use mcpdiff_oracle::encoding::encode_header_value;
use mcpdiff_oracle::judge::name_source;
use mcpdiff_oracle::{Case, Surface};
use serde_json::{Map, Value};

/// One tool's mirrored parameters: header name and `properties` path (None when the tool's
/// annotations are invalid, so nothing is mirrored).
type Mirrored = Option<Vec<(Vec<u8>, Vec<String>)>>;

/// The parts of a conformant request that do not change from case to case.
#[derive(Clone, Debug)]
pub struct Renderer {
    endpoint: String,
    /// `request_meta(MODERN_VERSION)`, serialized.
    meta: Vec<u8>,
    /// Per declared tool, in surface order (the first of a name wins, as `Surface::tool`).
    tools: Vec<(String, Mirrored)>,
}

impl Renderer {
    pub fn new(surface: &Surface) -> Renderer {
        Renderer {
            endpoint: surface.endpoint.clone(),
            // serializing a Value cannot fail (keys are strings)
            meta: serde_json::to_vec(&request_meta(MODERN_VERSION)).unwrap_or_default(),
            tools: surface
                .tools
                .iter()
                .map(|t| {
                    let mirrored = t.header_params.as_ref().ok().map(|ps| {
                        ps.iter()
                            .map(|p| (p.header_name().into_bytes(), p.path.clone()))
                            .collect()
                    });
                    (t.name.clone(), mirrored)
                })
                .collect(),
        }
    }

    /// `conformant_case(surface, id, method, Value::Object(params))`, byte for byte.
    pub fn render(&self, id: &Value, method: &str, params: &Map<String, Value>) -> Case {
        self.render_with(id, method, params, &[])
    }

    /// `render` with `extra` members appended to `_meta` (after the conformant ones).
    pub fn render_with(
        &self,
        id: &Value,
        method: &str,
        params: &Map<String, Value>,
        extra: &[(&str, Value)],
    ) -> Case {
        let mut headers: Vec<(Vec<u8>, Vec<u8>)> = Vec::with_capacity(8);
        let mut push = |n: &[u8], v: Vec<u8>| headers.push((n.to_vec(), v));
        push(b"Content-Type", b"application/json".to_vec());
        push(b"Accept", b"application/json, text/event-stream".to_vec());
        push(b"MCP-Protocol-Version", MODERN_VERSION.as_bytes().to_vec());
        push(b"Mcp-Method", method.as_bytes().to_vec());
        if let Some(field) = name_source(method) {
            if let Some(name) = params.get(field).and_then(Value::as_str) {
                push(b"Mcp-Name", encode_header_value(name).into_bytes());
            }
        }
        if method == "tools/call" {
            let tool = params
                .get("name")
                .and_then(Value::as_str)
                .and_then(|n| self.tools.iter().find(|(t, _)| t == n));
            if let Some((_, Some(mirrored))) = tool {
                for (header, path) in mirrored {
                    if let Extracted::Value(v) = extract(params.get("arguments"), path) {
                        if let Some(text) = header_text(v) {
                            push(header, encode_header_value(&text).into_bytes());
                        }
                    }
                }
            }
        }
        Case {
            method: "POST".to_string(),
            path: self.endpoint.clone(),
            headers,
            body: self.body(id, method, params, extra),
            labels: Vec::new(),
        }
    }

    /// `{"jsonrpc":"2.0","id":…,"method":…,"params":{…,"_meta":…}}` as `request_body`
    /// serializes it (members in order; a `_meta` already in `params` is replaced in place).
    fn body(
        &self,
        id: &Value,
        method: &str,
        params: &Map<String, Value>,
        extra: &[(&str, Value)],
    ) -> Vec<u8> {
        let extended;
        let meta: &[u8] = if extra.is_empty() {
            &self.meta
        } else {
            // the conformant object without its closing brace, the extra members, the brace
            let mut m = self.meta[..self.meta.len().saturating_sub(1)].to_vec();
            for (k, v) in extra {
                m.push(b',');
                put_str(&mut m, k);
                m.push(b':');
                put(&mut m, v);
            }
            m.push(b'}');
            extended = m;
            &extended
        };
        let mut b = Vec::with_capacity(160 + meta.len());
        b.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
        put(&mut b, id);
        b.extend_from_slice(br#","method":"#);
        put_str(&mut b, method);
        b.extend_from_slice(br#","params":{"#);
        let mut meta_written = false;
        for (k, v) in params {
            put_str(&mut b, k);
            b.push(b':');
            if k == "_meta" {
                b.extend_from_slice(meta);
                meta_written = true;
            } else {
                put(&mut b, v);
            }
            b.push(b',');
        }
        if meta_written {
            b.pop();
        } else {
            b.extend_from_slice(br#""_meta":"#);
            b.extend_from_slice(meta);
        }
        b.extend_from_slice(b"}}");
        b
    }
}

/// Append the compact JSON of `v`.
fn put(out: &mut Vec<u8>, v: &Value) {
    // writing JSON into a Vec cannot fail (map keys here are strings)
    let _ = serde_json::to_writer(out, v);
}

/// Append `s` as a JSON string.
fn put_str(out: &mut Vec<u8>, s: &str) {
    // writing JSON into a Vec cannot fail
    let _ = serde_json::to_writer(out, s);
}

#[cfg(test)]
mod tests {
    use super::super::base::BasePlan;
    use super::*;
    use crate::choice::Rng;
    use mcpdiff_oracle::client::conformant_case;
    use mcpdiff_oracle::{fixture, ToolDecl};
    use serde_json::json;

    fn check_surface(s: &Surface, draws: u64) {
        let plan = BasePlan::compile(s);
        let r = Renderer::new(s);
        for i in 0..draws {
            let mut rng = Rng::for_case(17, i);
            let (id, method, params) = plan.draw_call(&mut rng);
            let fast = r.render(&id, method, &params);
            let slow = conformant_case(s, id, method, Value::Object(params));
            assert_eq!(fast, slow, "draw {i}");
        }
    }

    #[test]
    fn renders_what_the_conformant_client_builds() {
        check_surface(&fixture::surface(), 5000);
        // invalid annotations (nothing mirrored), a duplicate name, a nested path
        let mut s = fixture::surface();
        s.tools.push(ToolDecl::new(
            "bad",
            json!({"type": "object", "properties": {
                "a": {"type": "object", "x-mcp-header": "A"}}}),
            true,
        ));
        s.tools.push(ToolDecl::new(
            "get_weather",
            json!({"type": "object", "properties": {
                "x": {"type": "string", "x-mcp-header": "X"}}}),
            true,
        ));
        s.endpoint = "/other".into();
        check_surface(&s, 3000);
    }

    #[test]
    fn meta_in_params_is_replaced_in_place() {
        let s = fixture::surface();
        let params = json!({"name": "get_weather", "_meta": {"x": 1}, "arguments": {}});
        let Value::Object(map) = params.clone() else {
            unreachable!()
        };
        let fast = Renderer::new(&s).render(&json!(3), "tools/call", &map);
        assert_eq!(fast, conformant_case(&s, json!(3), "tools/call", params));
    }
}
