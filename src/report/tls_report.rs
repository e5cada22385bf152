//! `TlsReport`: how an `https://` target's certificate was verified, as the run report
//! (`targets[].tls`, docs/run-json.md) records it, and [`annotate`], which records it.

use serde::{Deserialize, Serialize};

/// How an `https://` target's certificate was verified.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TlsReport {
    /// False with `--insecure`: any certificate was accepted.
    pub verified: bool,
    /// The `--cacert` file trusted instead of the built-in roots, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cacert: Option<String>,
}

impl TlsReport {
    pub fn of(o: &crate::transport::TlsOptions) -> TlsReport {
        TlsReport {
            verified: !o.insecure,
            cacert: o.cacert.as_ref().map(|p| p.display().to_string()),
        }
    }
}

/// Record in each https target's report how it was verified (`targets[].tls`).
pub fn annotate(rep: &mut super::RunReport, tls: &crate::transport::Tls) {
    for t in rep.targets.iter_mut() {
        if crate::transport::Endpoint::parse(&t.url).is_ok_and(|e| e.is_tls()) {
            t.tls = Some(TlsReport::of(tls.options()));
        }
    }
}
