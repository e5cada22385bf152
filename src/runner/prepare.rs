//! Preparing a target: parse its URL, run discovery, and apply the safety gate for real
//! endpoints (off loopback only `readOnlyHint` tools, or those named with `--allow-tool`,
//! are called).

pub use super::target_error::TargetError;
use super::{discover, NetSender, Sender, Target};
use crate::transport::{Client, Endpoint};
use mcpdiff_oracle::{Case, Observation, Surface, TransportFailure};
use std::sync::Arc;

/// A prepared target and whether it is on loopback.
pub struct Prepared {
    pub target: Target<NetSender>,
    pub loopback: bool,
    /// `server/discover` answered with a result: the surface is what the target declares,
    /// not the minimal stand-in used when discovery read nothing.
    pub discovered: bool,
}

/// Loopback hosts: the only ones where every tool may be called without `--allow-tool`.
pub fn is_loopback(e: &Endpoint) -> bool {
    let h = e.host.trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost")
        || h == "::1"
        || h.parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The tool a stored request may call on a target where the safety gate holds (not on
/// loopback): one `surface` declares without `readOnlyHint`, not named in `allow_tools`.
/// `None`: the request may be sent (no tool call, a read-only or allowed tool, or a name the
/// target does not declare, which a run sends too, to see it refused).
///
/// A stored case may be a fuzzed one, so the body is read the ways a server might read it,
/// and any of them naming a gated tool holds the request back: the parsed `params.name` of a
/// `tools/call` (escapes decoded), of each member of a batch too, and, for a body that
/// mentions `tools/call` anywhere, the tool's name as a JSON string anywhere in the text (a
/// repeated `name` key, of which the parse keeps only the last, or a body no parser reads
/// the same way).
pub fn gated_tool(case: &Case, surface: &Surface, allow_tools: &[String]) -> Option<String> {
    let gated = |name: &str| {
        surface
            .tools
            .iter()
            .any(|t| t.name == name && !t.read_only && !allow_tools.iter().any(|a| a == name))
    };
    let parsed: Option<serde_json::Value> = serde_json::from_slice(&case.body).ok();
    let calls = |v: &serde_json::Value| -> Option<String> {
        (v.get("method")?.as_str()? == "tools/call")
            .then(|| v.pointer("/params/name")?.as_str().map(str::to_string))?
    };
    let named = match &parsed {
        Some(serde_json::Value::Array(batch)) => batch.iter().filter_map(calls).collect(),
        Some(v) => calls(v).into_iter().collect(),
        None => Vec::new(),
    };
    if let Some(name) = named.into_iter().find(|n| gated(n)) {
        return Some(name);
    }
    let text = String::from_utf8_lossy(&case.body);
    if !text.contains("tools/call") {
        return None;
    }
    surface
        .tools
        .iter()
        .find(|t| gated(&t.name) && text.contains(&json_string(&t.name)))
        .map(|t| t.name.clone())
}

/// `s` as a JSON string (quoted, escaped as `serde_json` writes it).
fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// Discover `url` and build its `Target`. The error is one line that says what to do.
pub async fn prepare(
    name: &str,
    url: &str,
    client: &Client,
    allow_tools: &[String],
) -> Result<Prepared, TargetError> {
    let endpoint = Endpoint::parse(url).map_err(|error| TargetError::BadUrl {
        url: url.to_string(),
        error,
    })?;
    let loopback = is_loopback(&endpoint);
    // https: a failed handshake ends the run here with its cause (unknown issuer, name
    // mismatch, plain HTTP behind https://), before discovery would misread it as "refused"
    client
        .check_tls(&endpoint)
        .await
        .map_err(TargetError::Tls)?;
    let sender = NetSender {
        client: client.clone(),
        endpoint: Arc::new(endpoint.clone()),
    };
    // the first answer tells whether the target is a protected resource
    let first: Arc<std::sync::Mutex<Option<Observation>>> = Arc::default();
    let d = discover::discover(&endpoint.path, |c| {
        let s = sender.clone();
        let first = Arc::clone(&first);
        async move {
            let obs = s.send(c).await;
            let mut f = first
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            f.get_or_insert_with(|| obs.clone());
            obs
        }
    })
    .await;
    let first = first
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    // a challenge: no MCP rule is judged on it; say what the server asked for and stop
    if let Some(a) = first.as_ref().and_then(Observation::http) {
        if mcpdiff_oracle::auth::is_auth_challenge(a) {
            let creds = client.credentials().has_authorization();
            let message = crate::auth::unauthorized_message(client, &endpoint, url, a, creds).await;
            return Err(TargetError::Unauthorized(message));
        }
    }
    let d = match d {
        Ok(d) => d,
        Err(TransportFailure::Refused) => {
            return Err(TargetError::Refused {
                url: url.to_string(),
            })
        }
        // a target that answers garbage, resets or hangs is still tested: every case then
        // reports what it did (a clear verdict instead of a crash)
        Err(failure) => discover::Discovered {
            surface: Surface::minimal(&endpoint.path),
            notes: vec![format!(
                "server/discover got no HTTP answer ({failure:?}); testing with an empty surface"
            )],
            modern: false,
        },
    };
    let discovered = d.modern;
    let mut notes = d.notes;
    let mut surface = d.surface;
    // an OAuth protected resource: the user gave a bearer token (DEVIATIONS.md D-70)
    surface.protected = client.credentials().has_bearer();
    let mut gen_surface = surface.clone();
    if !loopback {
        let (keep, skip): (Vec<_>, Vec<_>) = gen_surface
            .tools
            .into_iter()
            .partition(|t| t.read_only || allow_tools.contains(&t.name));
        for t in &skip {
            notes.push(format!(
                "tool '{}' not called: the target is not on loopback and the tool is not \
                 annotated readOnlyHint (use --allow-tool {} to call it)",
                t.name, t.name
            ));
        }
        gen_surface.tools = keep;
    }
    Ok(Prepared {
        target: Target {
            name: name.to_string(),
            url: url.to_string(),
            sender,
            surface,
            gen_surface,
            notes,
        },
        loopback,
        discovered,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpdiff_oracle::client::conformant_case;
    use mcpdiff_oracle::fixture;
    use serde_json::json;

    #[test]
    fn only_declared_tools_without_read_only_hint_are_gated() {
        // (every fixture tool is read-only: the first one is made a writing one)
        let mut surface = fixture::surface();
        surface.tools[0].read_only = false;
        let (writes, reads) = (&surface.tools[0], &surface.tools[1]);
        assert!(reads.read_only);
        let call = |name: &str| {
            conformant_case(
                &surface,
                json!(1),
                "tools/call",
                json!({"name": name, "arguments": {}}),
            )
        };
        let w = writes.name.clone();
        assert_eq!(gated_tool(&call(&w), &surface, &[]), Some(w.clone()));
        assert_eq!(
            gated_tool(&call(&w), &surface, std::slice::from_ref(&w)),
            None
        );
        assert_eq!(gated_tool(&call(&reads.name), &surface, &[]), None);
        // a name the target does not declare is sent, as a run sends one
        assert_eq!(gated_tool(&call("no_such_tool"), &surface, &[]), None);
        // no tool call, or no JSON at all
        let list = conformant_case(&surface, json!(2), "tools/list", json!({}));
        assert_eq!(gated_tool(&list, &surface, &[]), None);
        let mut garbage = call(&w);
        garbage.body = b"\xff{".to_vec();
        assert_eq!(gated_tool(&garbage, &surface, &[]), None);
        // fuzzed bodies: a batch, a repeated `name` (the parse keeps the read-only last one),
        // an escaped name, and text no parser reads, each naming the writing tool
        let r = &reads.name;
        let first = w.chars().next().expect("a tool has a name");
        let forms = [
            format!(
                r#"[{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{w}"}}}}]"#
            ),
            format!(r#"{{"method":"tools/call","params":{{"name":"{w}","name":"{r}"}}}}"#),
            format!(
                r#"{{"method":"tools/call","params":{{"name":"\u{:04x}{}"}}}}"#,
                u32::from(first),
                &w[first.len_utf8()..]
            ),
            format!(r#"{{"method":"tools/call","params":{{"name":"{w}""#),
        ];
        for body in forms {
            let mut c = call(r);
            c.body = body.clone().into_bytes();
            assert_eq!(gated_tool(&c, &surface, &[]), Some(w.clone()), "{body}");
        }
        // the name in a body that calls no tool is no call
        let mut other = list.clone();
        other.body = format!(r#"{{"method":"tools/list","params":{{"x":"{w}"}}}}"#).into_bytes();
        assert_eq!(gated_tool(&other, &surface, &[]), None);
    }
}
