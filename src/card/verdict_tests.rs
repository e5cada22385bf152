//! Unit tests of the remote rules: which remotes are requested and which answers count.

use super::*;
use crate::card::url::parse_url;
use crate::card::validate::check_card;
use serde_json::{json, Value};

fn origin() -> Origin {
    parse_url("http://127.0.0.1:7").expect("valid").origin
}

fn probe(status: u16, challenge: Option<&str>) -> GetProbe {
    GetProbe {
        status: Some(status),
        www_authenticate: challenge.map(String::from),
        summary: format!("{status} text/plain empty"),
    }
}

fn remote(kind: &str, url: &str) -> Value {
    json!({"type": kind, "url": url, "supportedProtocolVersions": ["2026-07-28"]})
}

fn card(remotes: Vec<Value>) -> CardCheck {
    check_card(&json!({
        "name": "io.example/x", "version": "1", "description": "d", "remotes": remotes,
    }))
}

const SH: Option<TransportKind> = Some(TransportKind::StreamableHttp);
const SSE: Option<TransportKind> = Some(TransportKind::Sse);

#[test]
fn any_2xx_counts_for_any_transport() {
    for s in [200, 202, 204, 299] {
        assert!(judge(SH, &probe(s, None)).0);
        assert!(judge(SSE, &probe(s, None)).0);
    }
    assert!(
        !judge(SH, &probe(301, None)).0,
        "redirects are not followed"
    );
}

#[test]
fn only_streamable_http_counts_405_and_406() {
    for s in [405, 406] {
        assert!(judge(SH, &probe(s, None)).0);
        assert!(!judge(SSE, &probe(s, None)).0);
    }
}

#[test]
fn a_401_counts_only_with_resource_metadata() {
    let good =
        r#"Bearer resource_metadata="http://127.0.0.1:7/.well-known/oauth-protected-resource""#;
    assert!(judge(SH, &probe(401, Some(good))).0);
    assert!(
        judge(
            SSE,
            &probe(401, Some("Bearer realm=\"x\", RESOURCE_METADATA = \"u\""))
        )
        .0
    );
    assert!(!judge(SH, &probe(401, None)).0);
    let (counted, note) = judge(SH, &probe(401, Some("Bearer realm=\"mcp\"")));
    assert!(!counted);
    assert!(note.contains("bare 401"));
}

#[test]
fn resource_metadata_must_be_a_parameter_name() {
    assert!(names_resource_metadata("Bearer resource_metadata=\"u\""));
    assert!(names_resource_metadata(
        "Bearer error=\"x\",resource_metadata=\"u\""
    ));
    assert!(!names_resource_metadata(
        "Bearer realm=\"resource_metadata\""
    ));
    assert!(!names_resource_metadata("Bearer x_resource_metadata=\"u\""));
    assert!(!names_resource_metadata("Bearer resource_metadata"));
}

#[test]
fn other_statuses_and_silence_do_not_count() {
    for s in [400, 403, 404, 500, 503] {
        assert!(!judge(SH, &probe(s, None)).0, "{s}");
    }
    let none = GetProbe {
        status: None,
        www_authenticate: None,
        summary: "timeout".into(),
    };
    assert!(!judge(SH, &none).0);
}

#[test]
fn only_usable_remotes_on_the_origin_are_requested_up_to_the_cap() {
    let mut declared = remote("streamable-http", "http://127.0.0.1:7/d");
    declared["status"] = json!("declared");
    let c = card(vec![
        declared,
        remote("streamable-http", "http://example.com/mcp"),
        remote("streamable-http", "http://127.0.0.1:7/a"),
        remote("sse", "http://127.0.0.1:7/b"),
        remote("streamable-http", "http://u:p@127.0.0.1:7/c"),
        remote("streamable-http", "http://127.0.0.1:7/e"),
    ]);
    let p = plan(&c, &origin(), 2);
    assert_eq!(
        p,
        vec![
            RemotePlan::Skip(Skip::NotUsable),
            RemotePlan::Skip(Skip::OtherOrigin),
            RemotePlan::Request("/a".into()),
            RemotePlan::Request("/b".into()),
            RemotePlan::Skip(Skip::Credentials),
            RemotePlan::Skip(Skip::OverCap),
        ]
    );
    assert_eq!(plan(&c, &origin(), 5)[5], RemotePlan::Request("/e".into()));
}

#[test]
fn rows_say_requested_status_and_counted() {
    let c = card(vec![
        remote("streamable-http", "http://127.0.0.1:7/mcp"),
        remote("streamable-http", "http://example.com/mcp"),
    ]);
    let p = plan(&c, &origin(), 5);
    let r = remote_row(&c.remotes[0], &p[0], Some(&probe(405, None)), &origin());
    assert!(r.requested && r.counted && r.on_origin);
    assert_eq!(r.status, Some(405));
    assert_eq!(r.url, "http://127.0.0.1:7/mcp");
    let r = remote_row(&c.remotes[1], &p[1], None, &origin());
    assert!(!r.requested && !r.counted && !r.on_origin);
    assert!(r.note.contains("another origin"));
}
