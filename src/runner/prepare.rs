//! Preparing a target: parse its URL, run discovery, and apply the safety gate for real
//! endpoints (off loopback only `readOnlyHint` tools, or those named with `--allow-tool`,
//! are called).

pub use super::target_error::TargetError;
use super::{discover, NetSender, Sender, Target};
use crate::transport::{Client, Endpoint};
use mcpdiff_oracle::{Observation, Surface, TransportFailure};
use std::sync::Arc;

/// A prepared target and whether it is on loopback.
pub struct Prepared {
    pub target: Target<NetSender>,
    pub loopback: bool,
}

/// Loopback hosts: the only ones where every tool may be called without `--allow-tool`.
pub fn is_loopback(e: &Endpoint) -> bool {
    let h = e.host.trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost")
        || h == "::1"
        || h.parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
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
    })
}
