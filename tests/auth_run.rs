//! Protected targets: `mcpdiff run` against `serve --auth` without credentials stops with the
//! authorization line and judges nothing; with them the protected reference passes everything
//! (AUTH-* rules included); each auth mutant is caught on its own AUTH rule. That no output
//! carries a secret is tested in `auth_secrets.rs`.

mod common;

use common::protected::*;
use mcpdiff::serve::Variant;
use mcpdiff_oracle::reference::AUTH_MUTANTS;
use mcpdiff_oracle::rules::auth::AUTH_JUDGED_IDS;
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_credentials_the_run_stops_with_the_authorization_line() {
    let s = protected(Variant::Reference).await;
    let out = mcpdiff(strings(&["run", &s.url, "--quiet", "--cases", "20"])).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("--header 'Authorization: Bearer <token>'"),
        "{stderr}"
    );
    assert!(
        stderr.contains("requires authorization (HTTP 401)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("resource_metadata: http://127.0.0.1:"),
        "{stderr}"
    );
    assert!(stderr.contains("scope: mcp"), "{stderr}");
    assert!(
        stderr.contains("authorization_servers: [\"http://127.0.0.1:"),
        "{stderr}"
    );
    assert!(
        !stdout.contains("MUST") && !stdout.contains("finding"),
        "{stdout}"
    );
    // a wrong token: refused, said so, still exit 2 and no finding
    let out = mcpdiff(strings(&[
        "run",
        &s.url,
        "--quiet",
        "-H",
        "Authorization: Bearer not-the-token",
    ]))
    .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("refused the credentials given"), "{stderr}");
    assert!(!stderr.contains("not-the-token"), "{stderr}");
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_header_syntax_is_one_line_and_exit_2() {
    let out = mcpdiff(strings(&[
        "run",
        "http://127.0.0.1:9/mcp",
        "-H",
        "Authorization Bearer tok-7Hq2-secret-value",
    ]))
    .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(!stderr.contains(TOKEN), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_credentials_the_protected_reference_passes_every_rule() {
    let s = protected(Variant::Reference).await;
    let dir = temp_dir("reference");
    let json = dir.join("r.json");
    let out = mcpdiff(with_credentials(strings(&[
        "run",
        &s.url,
        "--quiet",
        "--cases",
        "200",
        "--seed",
        "3",
        "--json",
        json.to_str().expect("utf-8 path"),
    ])))
    .await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = report(&json);
    let t = &r["targets"][0];
    assert_eq!(t["findings"], serde_json::json!([]), "{t}");
    assert_eq!(t["score"], 1.0);
    let passed: Vec<&str> = t["passed"]
        .as_array()
        .expect("passed")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for id in AUTH_JUDGED_IDS {
        assert!(passed.contains(&id.0), "{id} not passed: {passed:?}");
    }
    s.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_auth_mutant_is_caught_on_its_own_rule() {
    let mut servers = Vec::new();
    let mut args = strings(&[
        "run",
        "--quiet",
        "--cases",
        "30",
        "--seed",
        "5",
        "--no-probes",
    ]);
    for m in AUTH_MUTANTS {
        let s = protected(Variant::Mutant(m)).await;
        args.push(s.url.clone());
        servers.push(s);
    }
    let dir = temp_dir("mutants");
    let json = dir.join("r.json");
    args.extend(strings(&["--json", json.to_str().expect("utf-8 path")]));
    let out = mcpdiff(with_credentials(args)).await;
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = report(&json);
    for (m, t) in AUTH_MUTANTS
        .iter()
        .zip(r["targets"].as_array().expect("targets"))
    {
        let rules: Vec<&str> = t["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter_map(|f| f["rule"].as_str())
            .collect();
        assert_eq!(rules, [m.rule.0], "mutant {} ({})", m.name, t["url"]);
    }
    for s in servers {
        s.shutdown().await;
    }
    let _ = std::fs::remove_dir_all(dir);
}
