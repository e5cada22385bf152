//! Reproducers: a shell command that sends exactly one case, for reports and bug filings.
//!
//! `curl` reads best, but curl rewrites what it cannot represent (it merges or drops some
//! fields, rejects control bytes, adds its own `User-Agent`, `Accept` and `Content-Type`), so
//! it is used only when the case survives it: the command then suppresses curl's own fields
//! (`-H 'Accept:'` ...) and sends the same fields, possibly in another order, which no
//! header-order-blind server can tell apart. Every other case gets a bash command that writes
//! the exact bytes of `encode_request` to `/dev/tcp/HOST/PORT` with a `printf` whose format
//! uses only the escapes POSIX `printf` defines (`\r`, `\n`, `\\`, `%%`, `\NNN` octal), so the
//! same `printf` also works piped into `nc` from dash.
//!
//! `https://` targets: curl gets `--cacert FILE` or `-k` as the run was configured
//! (`TlsOptions`), and the exact bytes go through `openssl s_client` instead of `/dev/tcp`,
//! with the same `printf` on its standard input and the same trust (`-CAfile`, or no
//! verification for `--insecure`).

use super::endpoint::Endpoint;
use super::tls::TlsOptions;
use super::wire::encode_request;
use mcpdiff_oracle::Case;

/// The best shell reproducer for `case`: `curl` when it sends the same request, else
/// `printf | nc` with the exact bytes. An `https://` endpoint is verified against the
/// default roots; see [`reproducer_with`] for `--cacert` / `--insecure` runs.
pub fn reproducer(case: &Case, endpoint: &Endpoint) -> String {
    reproducer_with(case, endpoint, &TlsOptions::default())
}

/// [`reproducer`] for a run configured with `tls` (it matters only for `https://`).
pub fn reproducer_with(case: &Case, endpoint: &Endpoint, tls: &TlsOptions) -> String {
    match curl_args(case, endpoint, tls) {
        Some(cmd) => cmd,
        None if endpoint.is_tls() => s_client_command(case, endpoint, tls),
        None => nc_command(case, endpoint),
    }
}

/// The exact bytes inside TLS: `printf '<bytes>' | timeout 5 openssl s_client -quiet
/// -connect HOST:PORT [-servername HOST] ...`. `-quiet` keeps the connection open after the
/// input ends (it implies `-ign_eof`) so the answer is printed; `timeout 5` ends a kept-alive
/// one. Verification as the run's: `-CAfile FILE` for `--cacert`, none for `--insecure`,
/// else openssl's default roots; a failed verification ends the command
/// (`-verify_return_error`) as it ended the run's handshake.
pub fn s_client_command(case: &Case, endpoint: &Endpoint, tls: &TlsOptions) -> String {
    let ip = endpoint.host.parse::<std::net::IpAddr>().is_ok();
    let mut cmd = format!(
        "{} | timeout 5 openssl s_client -quiet -connect {}",
        printf_command(&encode_request(case, endpoint)),
        single_quote(&endpoint.authority_with_port())
    );
    // SNI is the host name; an IP literal is sent without one, as the run's client does.
    if !ip {
        cmd += &format!(" -servername {}", single_quote(&endpoint.host));
    }
    if !tls.insecure {
        if let Some(ca) = &tls.cacert {
            cmd += &format!(" -CAfile {}", single_quote(&ca.to_string_lossy()));
        }
        let check = if ip { "-verify_ip" } else { "-verify_hostname" };
        cmd += &format!(
            " -verify_return_error {check} {}",
            single_quote(&endpoint.host)
        );
    }
    cmd
}

/// The exact bytes over bash's `/dev/tcp`, then the answer, for 5 s at most:
/// `(printf '<bytes>' >&3; timeout 5 cat <&3) 3<>/dev/tcp/HOST/PORT`. bash alone suffices
/// (many machines have no `nc`); `printf '<bytes>' | nc HOST PORT` sends the same bytes.
pub fn nc_command(case: &Case, endpoint: &Endpoint) -> String {
    format!(
        "({} >&3; timeout 5 cat <&3) 3<>/dev/tcp/{}/{}",
        printf_command(&encode_request(case, endpoint)),
        endpoint.host,
        endpoint.port
    )
}

/// A `printf` command whose output is exactly `bytes`.
pub fn printf_command(bytes: &[u8]) -> String {
    let mut out = String::from("printf '");
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\r' => out.push_str("\\r"),
            b'\n' => out.push_str("\\n"),
            b'\\' => out.push_str("\\\\"),
            b'%' => out.push_str("%%"),
            // A format starting with `-` would be read as an option by some printf builtins.
            b'-' if i == 0 => out.push_str("\\055"),
            // `'` cannot appear inside single quotes: use its octal escape.
            0x20..=0x7e if b != b'\'' => out.push(char::from(b)),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('\'');
    out
}

/// A `curl` command sending `case`, or `None` when curl would change the request.
pub fn curl_command(case: &Case, endpoint: &Endpoint) -> Option<String> {
    curl_args(case, endpoint, &TlsOptions::default())
}

fn curl_args(case: &Case, endpoint: &Endpoint, tls: &TlsOptions) -> Option<String> {
    if !curl_can_send(case) {
        return None;
    }
    let mut args: Vec<String> = vec![
        "curl".into(),
        "-sS".into(),
        "-i".into(),
        // Send the path as is (no `/../` squashing) and take `[]{}` literally.
        "--path-as-is".into(),
        "-g".into(),
    ];
    if endpoint.is_tls() {
        // HTTP/1.1 as the run spoke it (curl would offer h2 over TLS).
        args.push("--http1.1".into());
        if tls.insecure {
            args.push("-k".into());
        } else if let Some(ca) = &tls.cacert {
            args.push("--cacert".into());
            args.push(single_quote(&ca.to_string_lossy()));
        }
    }
    args.push("-X".into());
    args.push(case.method.clone());
    args.push(single_quote(&endpoint.url_for(&case.path)));
    for (name, value) in &case.headers {
        // Both are printable ASCII here (checked above), so the conversion is exact.
        let name = String::from_utf8_lossy(name);
        let value = String::from_utf8_lossy(value);
        // `Name:` would make curl drop the field; `Name;` sends it empty.
        let field = if value.is_empty() {
            format!("{name};")
        } else {
            format!("{name}: {value}")
        };
        args.push("-H".into());
        args.push(single_quote(&field));
    }
    // Fields curl adds by itself that the case does not carry: `Name:` suppresses them.
    for own in ["User-Agent", "Accept", "Content-Type", "Expect"] {
        if !has_field(case, own) {
            args.push("-H".into());
            args.push(single_quote(&format!("{own}:")));
        }
    }
    args.push("--data-binary".into());
    let body = &case.body;
    let mut prefix = String::new();
    if body.is_empty() {
        args.push("''".into());
    } else if body[0] == b'@' || body.contains(&0) {
        // `@...` names a file to curl, and a shell string cannot hold NUL: pipe it instead.
        prefix = format!("{} | ", printf_command(body));
        args.push("@-".into());
    } else if body.iter().all(|b| (0x20..=0x7e).contains(b)) {
        args.push(single_quote(&String::from_utf8_lossy(body)));
    } else {
        args.push(ansi_c_quote(body));
    }
    Some(format!("{prefix}{}", args.join(" ")))
}

fn has_field(case: &Case, name: &str) -> bool {
    case.headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Whether curl sends this case as encoded (fields possibly reordered).
fn curl_can_send(case: &Case) -> bool {
    let method = case.method.as_bytes();
    // HEAD makes curl wait for a body it never gets; CONNECT is a tunnel.
    if method.is_empty()
        || !method.iter().all(|&b| is_tchar(b))
        || matches!(case.method.as_str(), "HEAD" | "CONNECT")
    {
        return false;
    }
    let path = case.path.as_bytes();
    if !path.starts_with(b"/")
        || !path
            .iter()
            .all(|&b| (0x21..=0x7e).contains(&b) && b != b'#')
    {
        return false;
    }
    for (i, (name, value)) in case.headers.iter().enumerate() {
        if name.is_empty() || !name.iter().all(|&b| is_tchar(b)) {
            return false;
        }
        // Printable ASCII without edge spaces: curl passes it through untouched.
        let printable = value.iter().all(|&b| (0x20..=0x7e).contains(&b));
        if !printable || value.starts_with(b" ") || value.ends_with(b" ") {
            return false;
        }
        // Any repeated name: curl merges or replaces some (Host, Content-Type, ...), and the
        // exact sequence is the point of such a case.
        if case.headers[..i]
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            return false;
        }
        let is = |n: &str| name.eq_ignore_ascii_case(n.as_bytes());
        // curl chunks the body itself for `Transfer-Encoding: chunked`, and would send the
        // real length next to a wrong one.
        if is("transfer-encoding") {
            return false;
        }
        if is("content-length") && value != case.body.len().to_string().as_bytes() {
            return false;
        }
    }
    true
}

/// `'text'`, with `'` spelled `'\''`.
fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// `$'...'` (bash, zsh, ksh): printable ASCII kept, everything else as 3-digit octal.
fn ansi_c_quote(bytes: &[u8]) -> String {
    let mut out = String::from("$'");
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\'' => out.push_str("\\'"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
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
        assert!(cmd
            .starts_with("curl -sS -i --path-as-is -g -X POST 'http://127.0.0.1:8080/mcp?q=[1]' "));
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
}
