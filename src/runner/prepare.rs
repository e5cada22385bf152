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

/// The tool a stored request would call on a target where the safety gate holds (not on
/// loopback): a `tools/call` of a tool `surface` declares without `readOnlyHint`, not named in
/// `allow_tools`. `None`: the request may be sent (no tool call, a read-only or allowed tool,
/// or a name the target does not declare, which a run sends too, to see it refused).
pub fn gated_tool(case: &Case, surface: &Surface, allow_tools: &[String]) -> Option<String> {
    let body: serde_json::Value = serde_json::from_slice(&case.body).ok()?;
    if body.get("method").and_then(serde_json::Value::as_str) != Some("tools/call") {
        return None;
    }
    let name = body.pointer("/params/name")?.as_str()?;
    let declared = surface.tools.iter().find(|t| t.name == name)?;
    (!declared.read_only && !allow_tools.iter().any(|a| a == name)).then(|| name.to_string())
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
    }
}
