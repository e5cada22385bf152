//! Tests of `reproducer.rs`: the printf, curl and s_client commands, run in real shells
//! where they exist.

use super::*;
use std::process::{Command, Stdio};

fn ep() -> Endpoint {
    Endpoint::parse("http://127.0.0.1:8080/mcp").unwrap()
}

/// Run `script` with `sh -c` (or another shell) and return its stdout bytes.
fn run(shell: &str, script: &str) -> Option<Vec<u8>> {
    let out = Command::new(shell)
        .arg("-c")
        .arg(script)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "{shell} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(out.stdout)
}

#[test]
fn placeholders_become_environment_variables() {
    let creds = Credentials::parse(&["Authorization: Bearer s3cr3t-v".into()], None).unwrap();
    let c = Case::post("/mcp?access_token={{MCPDIFF_TOKEN}}", &[("A", "b")], "{}");
    let r = reproducer_with(&c, &ep(), &creds);
    assert!(!r.contains("s3cr3t"), "{r}");
    assert!(
        r.contains(r#"-H 'Authorization: '"${MCPDIFF_AUTHORIZATION}""#),
        "{r}"
    );
    assert!(
        r.contains(r#"'http://127.0.0.1:8080/mcp?access_token='"${MCPDIFF_AUTHORIZATION#* }""#),
        "{r}"
    );
    // the raw-bytes form expands them too
    let p = printf_command(b"Authorization: {{MCPDIFF_AUTHORIZATION}}|{{MCPDIFF_TOKEN}}%");
    let script = format!("MCPDIFF_AUTHORIZATION='Bearer t-1'; {p}");
    assert_eq!(
        run("sh", &script).unwrap(),
        b"Authorization: Bearer t-1|t-1%"
    );
}

fn tricky_case() -> Case {
    let mut c = Case::post("/mcp", &[("content-TYPE", "application/json")], "");
    c.method = "-POST".into();
    c.headers
        .push((b"Mcp-Name".to_vec(), b" 'quoted' \\ $HOME %s %%".to_vec()));
    c.headers
        .push((b"mcp-name".to_vec(), vec![0x80, 0x00, 0x7f, b'\t', 0xff]));
    c.headers
        .push((b"X-Utf8".to_vec(), "héllo ☃".as_bytes().to_vec()));
    c.body = (0u8..=255).collect();
    c
}

#[test]
fn printf_reproduces_exact_bytes_in_every_posix_shell() {
    let case = tricky_case();
    let want = encode_request(&case, &ep());
    let cmd = nc_command(&case, &ep());
    assert!(cmd.ends_with(" 3<>/dev/tcp/127.0.0.1/8080"), "{cmd}");
    assert!(cmd.is_ascii());
    assert!(cmd.starts_with("(printf '"), "{cmd}");
    // the printf part alone must print the exact bytes in every POSIX shell (it is
    // also what `| nc HOST PORT` would send)
    let script = printf_command(&want);
    assert!(cmd.contains(&script));
    for shell in ["sh", "dash", "bash"] {
        if let Some(got) = run(shell, &script) {
            assert_eq!(got, want, "{shell}");
        }
    }
    assert_eq!(
        reproducer(&case, &ep()),
        cmd,
        "duplicates and control bytes need the raw form"
    );
}

/// Run a curl command in bash with `curl` replaced by a function printing its arguments
/// (NUL-separated) and, for `@-`, its stdin.
fn curl_argv(cmd: &str) -> Vec<Vec<u8>> {
    let fake = r#"curl() { for a in "$@"; do printf '%s\000' "$a"; done; case " $* " in *" @- "*) cat;; esac; }; "#;
    let Some(out) = run("bash", &format!("{fake}{cmd}")) else {
        return Vec::new();
    };
    // Stdin (the body) may hold NULs itself: split the arguments off before it.
    let (args, stdin) = match out.windows(3).position(|w| w == b"@-\0") {
        Some(i) if cmd.contains("@-") => (&out[..i + 3], Some(out[i + 3..].to_vec())),
        _ => (&out[..], None),
    };
    let mut parts: Vec<Vec<u8>> = args.split(|&b| b == 0).map(<[u8]>::to_vec).collect();
    parts.pop(); // after the last NUL
    parts.extend(stdin);
    parts
}

#[test]
fn curl_command_quotes_tricky_values() {
    let mut case = Case::post(
        "/mcp?q=[1]",
        &[
            ("Content-Type", "application/json"),
            ("Mcp-Name", "it's $HOME `id` \\n \"x\""),
            ("X-Empty", ""),
        ],
        "",
    );
    let body = "{\"name\":\"café ☃\",\"q\":\"it's $(id) \\\\ %s\"}\n\t";
    case.body = body.as_bytes().to_vec();
    let cmd = curl_command(&case, &ep()).expect("curl can send this case");
    assert_eq!(reproducer(&case, &ep()), cmd);
    assert!(
        cmd.starts_with("curl -sS -i --path-as-is -g -X POST 'http://127.0.0.1:8080/mcp?q=[1]' ")
    );
    let argv = curl_argv(&cmd);
    if argv.is_empty() {
        return; // no bash here
    }
    let s = |a: &str| a.as_bytes().to_vec();
    let want: Vec<Vec<u8>> = vec![
        s("-sS"),
        s("-i"),
        s("--path-as-is"),
        s("-g"),
        s("-X"),
        s("POST"),
        s("http://127.0.0.1:8080/mcp?q=[1]"),
        s("-H"),
        s("Content-Type: application/json"),
        s("-H"),
        s("Mcp-Name: it's $HOME `id` \\n \"x\""),
        s("-H"),
        s("X-Empty;"),
        s("-H"),
        s("User-Agent:"),
        s("-H"),
        s("Accept:"),
        s("-H"),
        s("Expect:"),
        s("--data-binary"),
        case.body.clone(),
    ];
    assert_eq!(argv, want);
}

#[test]
fn curl_body_with_nul_or_at_sign_goes_through_stdin() {
    for body in [b"@/etc/passwd".to_vec(), vec![b'{', 0, b'}', 0xc3]] {
        let mut case = Case::post("/mcp", &[], "");
        case.body = body.clone();
        let cmd = curl_command(&case, &ep()).unwrap();
        assert!(
            cmd.starts_with("printf '") && cmd.ends_with("--data-binary @-"),
            "{cmd}"
        );
        let argv = curl_argv(&cmd);
        if let Some(last) = argv.last() {
            assert_eq!(argv[argv.len() - 2], b"@-".to_vec());
            assert_eq!(last, &body);
        }
    }
}

#[test]
fn curl_refuses_what_it_would_change() {
    let ok = Case::post("/mcp", &[("A", "b")], "x");
    assert!(curl_command(&ok, &ep()).is_some());
    let refuse = [
        Case::post("/mcp", &[("A", "b"), ("a", "c")], ""),
        Case::post("/mcp", &[("A", " padded")], ""),
        Case::post("/mcp", &[("A", "é")], ""),
        Case::post("/mcp", &[("A", "x\ty")], ""),
        Case::post("/mcp", &[("Bad Name", "x")], ""),
        Case::post("/mcp", &[("Transfer-Encoding", "chunked")], ""),
        Case::post("/mcp", &[("Content-Length", "9")], "x"),
        Case::post("/a b", &[], ""),
        Case::post("/a#b", &[], ""),
    ];
    for case in refuse {
        assert!(curl_command(&case, &ep()).is_none(), "{case:?}");
        assert!(reproducer(&case, &ep()).contains("3<>/dev/tcp/127.0.0.1/8080"));
    }
    let mut head = ok.clone();
    head.method = "HEAD".into();
    assert!(curl_command(&head, &ep()).is_none());
}

fn tls(cacert: Option<&str>, insecure: bool) -> TlsOptions {
    TlsOptions {
        cacert: cacert.map(std::path::PathBuf::from),
        insecure,
    }
}

#[test]
fn https_curl_carries_the_run_trust() {
    let ok = Case::post("/mcp", &[("A", "b")], "x");
    let by_name = Endpoint::parse("https://localhost:8443/mcp").unwrap();
    let verified = rtls(&ok, &by_name, &tls(Some("/ca dir/ca.pem"), false));
    assert!(
        verified.starts_with(
            "curl -sS -i --path-as-is -g --http1.1 --cacert '/ca dir/ca.pem' -X POST \
             'https://localhost:8443/mcp' "
        ),
        "{verified}"
    );
    let insecure = rtls(&ok, &by_name, &tls(None, true));
    assert!(
        insecure.contains(" --http1.1 -k -X POST 'https://"),
        "{insecure}"
    );
    let default = rtls(&ok, &by_name, &tls(None, false));
    assert!(
        !default.contains("-k") && !default.contains("--cacert"),
        "{default}"
    );
    // plain http never gets TLS flags, whatever the run's options
    let plain = rtls(&ok, &ep(), &tls(Some("/ca.pem"), false));
    assert!(
        !plain.contains("--cacert") && !plain.contains("--http1.1"),
        "{plain}"
    );
}

#[test]
fn https_raw_bytes_go_through_s_client() {
    let raw = Case::post("/mcp", &[("A", "b"), ("a", "c")], "");
    let by_name = Endpoint::parse("https://localhost:8443/mcp").unwrap();
    let printf = printf_command(&encode_request(&raw, &by_name));
    let cmd = rtls(&raw, &by_name, &tls(Some("/ca.pem"), false));
    assert_eq!(
        cmd,
        format!(
            "{printf} | timeout 5 openssl s_client -quiet -connect 'localhost:8443' \
             -servername 'localhost' -CAfile '/ca.pem' -verify_return_error \
             -verify_hostname 'localhost'"
        )
    );
    let cmd = rtls(&raw, &by_name, &tls(None, true));
    assert!(
        cmd.ends_with("-connect 'localhost:8443' -servername 'localhost'"),
        "--insecure verifies nothing: {cmd}"
    );
    let ip6 = Endpoint::parse("https://[::1]/mcp").unwrap();
    let cmd = rtls(&raw, &ip6, &tls(None, false));
    assert!(
        cmd.ends_with("-connect '[::1]:443' -verify_return_error -verify_ip '::1'"),
        "{cmd}"
    );
    // http keeps the /dev/tcp form
    assert!(rtls(&raw, &ep(), &tls(None, true)).contains("3<>/dev/tcp/"));
}

/// `reproducer_tls` with no configured `--header` fields.
fn rtls(case: &Case, endpoint: &Endpoint, tls: &TlsOptions) -> String {
    reproducer_tls(case, endpoint, &Credentials::default(), tls)
}
