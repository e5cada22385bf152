//! Reproducers of a sequence: the shell commands that resend every request of a finding that
//! no single request shows (the connection probes after a run: BASE-STATELESS-NO-PRIOR,
//! `*-LIST-STABLE`), in the order the run sent them and on the connections it sent them on.
//!
//! A finding's requests come grouped by connection, in order. One connection is one command,
//! the commands one per line in order, each after a `#` comment saying which connection it
//! is. A connection that carried one request gets that request's own reproducer
//! (`reproducer_tls`), so it opens a connection of its own and closes it. A connection that
//! carried several is one `curl` invocation with `--next` between the requests: curl sends
//! the operations of one invocation one after the other, each after the answer to the one
//! before, and keeps the connection open between them, which is what the run's kept-alive
//! connection did. `--next` resets every option that is not global, so each operation
//! repeats its own (the TLS trust, `--http1.1`, the header suppressions). When curl cannot
//! send one of them as encoded, or one needs curl's standard input for its body (only one
//! operation could have it), the connection's exact bytes go through one bash `/dev/tcp`
//! connection (`openssl s_client` for `https://`), a `sleep 1` after each request but the
//! last so its answer comes back before the next request is written, as in the run (a
//! server may treat requests written back to back, pipelined, another way).
//!
//! The single-request reproducer stays the one of `reproducer`: a sequence of one connection
//! carrying one request gets exactly that command.

use super::credentials::Credentials;
use super::endpoint::Endpoint;
use super::reproducer::{as_sent, curl_operation, printf_command, reproducer_tls, s_client_reader};
use super::tls::TlsOptions;
use super::wire::encode_request;
use mcpdiff_oracle::Case;

/// The reproducer of the requests in `connections` (each connection's requests in the order
/// sent, the connections in the order opened) as the transport sent them in a run with
/// `creds` and `tls`. One connection carrying one request: [`reproducer_tls`] of it.
pub fn sequence_reproducer(
    connections: &[Vec<Case>],
    endpoint: &Endpoint,
    creds: &Credentials,
    tls: &TlsOptions,
) -> String {
    if let [only] = connections {
        if let [case] = only.as_slice() {
            return reproducer_tls(case, endpoint, creds, tls);
        }
    }
    let total = connections.len();
    let mut lines = Vec::new();
    for (i, requests) in connections.iter().enumerate() {
        let n = i + 1;
        let shown: Vec<Case> = requests.iter().map(|c| as_sent(c, creds)).collect();
        match shown.as_slice() {
            [] => continue,
            [case] => {
                lines.push(format!("# connection {n} of {total}: a fresh connection"));
                lines.push(reproducer_tls(case, endpoint, &Credentials::default(), tls));
            }
            several => {
                lines.push(format!(
                    "# connection {n} of {total}: {} requests on one kept-alive connection",
                    several.len()
                ));
                lines.push(one_connection(several, endpoint, tls));
            }
        }
    }
    lines.join("\n")
}

/// One command sending `cases` (credentials already added) in order on one connection.
fn one_connection(cases: &[Case], endpoint: &Endpoint, tls: &TlsOptions) -> String {
    let ops: Option<Vec<Vec<String>>> = cases
        .iter()
        .map(|c| {
            curl_operation(c, endpoint, tls)
                .filter(|(prefix, _)| prefix.is_empty())
                .map(|(_, args)| args)
        })
        .collect();
    if let Some(ops) = ops {
        let joined: Vec<String> = ops.into_iter().map(|a| a.join(" ")).collect();
        return format!("curl {}", joined.join(" --next "));
    }
    // the exact bytes, a second between requests for each answer to come back first
    let writes: Vec<String> = cases
        .iter()
        .map(|c| printf_command(&encode_request(c, endpoint)))
        .collect();
    if endpoint.is_tls() {
        format!(
            "({}) | {}",
            writes.join("; sleep 1; "),
            s_client_reader(endpoint, tls)
        )
    } else {
        let to_socket: Vec<String> = writes.iter().map(|w| format!("{w} >&3")).collect();
        format!(
            "({}; timeout 5 cat <&3) 3<>/dev/tcp/{}/{}",
            to_socket.join("; sleep 1; "),
            endpoint.host,
            endpoint.port
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn https() -> Endpoint {
        Endpoint::parse("https://localhost:8443/mcp").expect("url")
    }

    fn cacert() -> TlsOptions {
        TlsOptions {
            cacert: Some(PathBuf::from("/ca.pem")),
            insecure: false,
        }
    }

    fn creds() -> Credentials {
        Credentials::parse(&["Authorization: Bearer s3cr3t".into()], None).expect("parses")
    }

    #[test]
    fn one_request_alone_is_the_single_request_reproducer() {
        let c = Case::post("/mcp", &[("A", "b")], "{}");
        let (creds, tls) = (creds(), cacert());
        assert_eq!(
            sequence_reproducer(&[vec![c.clone()]], &https(), &creds, &tls),
            reproducer_tls(&c, &https(), &creds, &tls)
        );
    }

    #[test]
    fn every_operation_after_next_carries_the_trust_and_the_credentials() {
        let (one, two) = (
            Case::post("/mcp", &[("A", "b")], "{\"id\":1}"),
            Case::post("/mcp", &[("A", "b")], "{\"id\":2}"),
        );
        let cmd = sequence_reproducer(
            &[vec![one.clone()], vec![one, two]],
            &https(),
            &creds(),
            &cacert(),
        );
        let lines: Vec<&str> = cmd.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 2, "{cmd}");
        let kept = lines[1];
        assert_eq!(kept.matches("curl ").count(), 1, "{kept}");
        assert_eq!(kept.matches(" --next ").count(), 1, "{kept}");
        for each in [
            " --http1.1 ",
            " --cacert '/ca.pem' ",
            "\"${MCPDIFF_AUTHORIZATION}\"",
        ] {
            assert_eq!(kept.matches(each).count(), 2, "{each}: {kept}");
        }
        assert!(kept.find("{\"id\":1}") < kept.find("{\"id\":2}"), "{kept}");
        assert!(!cmd.contains("s3cr3t"), "{cmd}");
    }

    #[test]
    fn what_curl_cannot_send_goes_as_exact_bytes_on_one_connection() {
        // a repeated field: curl would merge it
        let raw = Case::post("/mcp", &[("A", "b"), ("a", "c")], "{\"id\":2}");
        let ok = Case::post("/mcp", &[("A", "b")], "{\"id\":1}");
        let plain = Endpoint::parse("http://127.0.0.1:8080/mcp").expect("url");
        let none = Credentials::default();
        let tls = TlsOptions::default();
        let printf = |c: &Case, e: &Endpoint| printf_command(&encode_request(c, e));
        let cmd = sequence_reproducer(&[vec![ok.clone(), raw.clone()]], &plain, &none, &tls);
        assert!(
            cmd.ends_with(&format!(
                "({} >&3; sleep 1; {} >&3; timeout 5 cat <&3) 3<>/dev/tcp/127.0.0.1/8080",
                printf(&ok, &plain),
                printf(&raw, &plain)
            )),
            "{cmd}"
        );
        let cmd = sequence_reproducer(&[vec![ok.clone(), raw.clone()]], &https(), &none, &cacert());
        assert!(
            cmd.ends_with(&format!(
                "({}; sleep 1; {}) | {}",
                printf(&ok, &https()),
                printf(&raw, &https()),
                s_client_reader(&https(), &cacert())
            )),
            "{cmd}"
        );
        assert!(cmd.contains("-CAfile '/ca.pem'"), "{cmd}");
    }
}
