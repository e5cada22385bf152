//! A pure reference client (what a conforming SDK sends for each call of a tool set) and one
//! mutant per client rule. The calibration: the reference scores clean and each mutant is
//! caught by exactly its rule, so no client rule is a check that cannot fail.

use super::RecordedRequest;
use crate::annotations::{extract, header_text, Extracted};
use crate::case::MODERN_VERSION;
use crate::client::request_body;
use crate::encoding::sentinel::{matches_sentinel_pattern, PREFIX, SUFFIX};
use crate::encoding::{encode_header_value, needs_encoding};
use crate::rules::client::*;
use crate::rules::RuleId;
use crate::toolset::{label, GeneratedTool, ToolSet};
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use base64::Engine;
use serde_json::{json, Value};

/// A client defect planted in the reference client; each breaks one client rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientMutant {
    KeepInvalid,
    DropValid,
    OmitProvided,
    SendNull,
    SendAbsent,
    WrongValue,
    IntegerFraction,
    BoolCapital,
    NoBase64,
    UnpaddedBase64,
    UpperMarkers,
    SentinelPlain,
    NoMcpMethod,
    NoMcpName,
    NamePlain,
    NoProtocolVersion,
    StaleProtocolVersion,
    NoAccept,
}

impl ClientMutant {
    /// The mutant's name on the command line (`mcpdiff reference-client --mutant NAME`).
    pub fn name(self) -> String {
        let mut out = String::new();
        for (i, c) in format!("{self:?}").chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    }

    /// A mutant by its [`ClientMutant::name`].
    pub fn by_name(name: &str) -> Option<ClientMutant> {
        MUTANTS.iter().map(|(m, _)| *m).find(|m| m.name() == name)
    }
}

/// Every mutant with the rule it breaks.
pub const MUTANTS: &[(ClientMutant, RuleId)] = &[
    (ClientMutant::KeepInvalid, TOOL_EXCLUDE),
    (ClientMutant::DropValid, TOOL_KEEP_VALID),
    (ClientMutant::OmitProvided, PARAM_INCLUDE),
    (ClientMutant::SendNull, PARAM_NULL_OMIT),
    (ClientMutant::SendAbsent, PARAM_ABSENT_OMIT),
    (ClientMutant::WrongValue, PARAM_MIRROR),
    (ClientMutant::IntegerFraction, INT_DECIMAL),
    (ClientMutant::BoolCapital, BOOL_LOWER),
    (ClientMutant::NoBase64, B64_REQUIRED),
    (ClientMutant::UnpaddedBase64, B64_FORMAT),
    (ClientMutant::UpperMarkers, B64_MARKERS),
    (ClientMutant::SentinelPlain, B64_COLLISION),
    (ClientMutant::NoMcpMethod, HDR_METHOD),
    (ClientMutant::NoMcpName, HDR_NAME),
    (ClientMutant::NamePlain, NAME_B64),
    (ClientMutant::NoProtocolVersion, PV_PRESENT),
    (ClientMutant::StaleProtocolVersion, PV_MATCH),
    (ClientMutant::NoAccept, ACCEPT),
];

/// The reference client, optionally with one planted defect.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReferenceClient {
    pub mutant: Option<ClientMutant>,
}

/// The conforming request for a call of `tool` (no mutant).
pub fn reference_request(
    tool: &GeneratedTool,
    arguments: Option<&Value>,
    id: u64,
) -> RecordedRequest {
    ReferenceClient::default().request(tool, arguments, id)
}

impl ReferenceClient {
    fn is(&self, m: ClientMutant) -> bool {
        self.mutant == Some(m)
    }

    /// The names it keeps from `tools/list`.
    pub fn kept(&self, set: &ToolSet) -> Vec<String> {
        let mut kept: Vec<String> = set
            .tools
            .iter()
            .filter(|t| t.valid || self.is(ClientMutant::KeepInvalid))
            .map(|t| t.name().to_string())
            .collect();
        if self.is(ClientMutant::DropValid) {
            kept.pop();
        }
        kept
    }

    /// Every request it sends for the calls of the tools it kept.
    pub fn run(&self, set: &ToolSet) -> Vec<RecordedRequest> {
        let kept = self.kept(set);
        let mut out = Vec::new();
        for tool in set
            .tools
            .iter()
            .filter(|t| kept.iter().any(|k| k == t.name()))
        {
            for call in &tool.calls {
                out.push(self.request(tool, call.arguments.as_ref(), out.len() as u64 + 1));
            }
        }
        out
    }

    /// The request for one call.
    pub fn request(
        &self,
        tool: &GeneratedTool,
        arguments: Option<&Value>,
        id: u64,
    ) -> RecordedRequest {
        let mut params = json!({"name": tool.name()});
        if let Some(a) = arguments {
            params["arguments"] = a.clone();
        }
        let mut body = request_body(&json!(id), "tools/call", &params);
        let mut headers: Vec<(String, Vec<u8>)> =
            vec![("Content-Type".into(), b"application/json".to_vec())];
        if !self.is(ClientMutant::NoAccept) {
            headers.push((
                "Accept".into(),
                b"application/json, text/event-stream".to_vec(),
            ));
        }
        if self.is(ClientMutant::StaleProtocolVersion) {
            headers.push(("MCP-Protocol-Version".into(), b"2025-11-25".to_vec()));
        } else if !self.is(ClientMutant::NoProtocolVersion) {
            headers.push((
                "MCP-Protocol-Version".into(),
                MODERN_VERSION.as_bytes().to_vec(),
            ));
        }
        if !self.is(ClientMutant::NoMcpMethod) {
            headers.push(("Mcp-Method".into(), b"tools/call".to_vec()));
        }
        if !self.is(ClientMutant::NoMcpName) {
            let name = if self.is(ClientMutant::NamePlain) {
                tool.name().to_string()
            } else {
                encode_header_value(tool.name())
            };
            headers.push(("Mcp-Name".into(), name.into_bytes()));
        }
        for p in label(tool.input_schema()).unwrap_or_default() {
            let value = match extract(arguments, &p.path) {
                Extracted::Absent if self.is(ClientMutant::SendAbsent) => Some(String::new()),
                Extracted::Null if self.is(ClientMutant::SendNull) => Some("null".into()),
                Extracted::Value(v) if !self.is(ClientMutant::OmitProvided) => {
                    header_text(v).map(|t| self.encode(v, t))
                }
                _ => None,
            };
            if let Some(v) = value {
                headers.push((p.header_name(), v.into_bytes()));
            }
        }
        // keep the body's arguments as given (request_body copied them)
        body["params"]["name"] = json!(tool.name());
        RecordedRequest {
            method: "POST".into(),
            headers,
            // serializing a Value cannot fail
            body: serde_json::to_vec(&body).unwrap_or_default(),
        }
    }

    /// A parameter value as this client writes it.
    fn encode(&self, value: &Value, text: String) -> String {
        use ClientMutant::*;
        match self.mutant {
            Some(WrongValue) if value.is_string() => format!("{text}-x"),
            Some(IntegerFraction) if value.is_i64() || value.is_u64() => format!("{text}.0"),
            Some(BoolCapital) if value.is_boolean() => {
                let mut c = text.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            }
            Some(NoBase64)
                if needs_encoding(&text) && !matches_sentinel_pattern(text.as_bytes()) =>
            {
                text
            }
            Some(SentinelPlain) if matches_sentinel_pattern(text.as_bytes()) => text,
            Some(UnpaddedBase64) if needs_encoding(&text) => {
                format!(
                    "{PREFIX}{}{SUFFIX}",
                    STANDARD_NO_PAD.encode(text.as_bytes())
                )
            }
            Some(UpperMarkers) if needs_encoding(&text) => {
                format!("=?BASE64?{}{SUFFIX}", STANDARD.encode(text.as_bytes()))
            }
            _ => encode_header_value(&text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{calibration::calibration_set, judge_kept, judge_request, ClientFinding};
    use super::*;
    use std::collections::BTreeSet;

    fn findings(client: &ReferenceClient, set: &ToolSet) -> Vec<ClientFinding> {
        let mut out = judge_kept(set, &client.kept(set));
        for req in client.run(set) {
            out.extend(judge_request(set, &req));
        }
        out
    }

    #[test]
    fn the_reference_client_scores_clean() {
        let set = calibration_set();
        let got = findings(&ReferenceClient::default(), &set);
        assert!(got.is_empty(), "{got:#?}");
    }

    #[test]
    fn every_mutant_breaks_exactly_its_rule() {
        let set = calibration_set();
        for &(mutant, rule) in MUTANTS {
            let got = findings(
                &ReferenceClient {
                    mutant: Some(mutant),
                },
                &set,
            );
            let rules: BTreeSet<RuleId> = got.iter().map(|f| f.rule).collect();
            assert_eq!(rules, BTreeSet::from([rule]), "{mutant:?}: {got:#?}");
        }
    }

    #[test]
    fn mutant_names_round_trip() {
        assert_eq!(ClientMutant::NoBase64.name(), "no-base64");
        for (m, _) in MUTANTS {
            assert_eq!(ClientMutant::by_name(&m.name()), Some(*m));
        }
    }

    #[test]
    fn every_client_rule_has_a_mutant() {
        for id in CLIENT_JUDGED_IDS {
            // the retry is a conversation, not one request: calibrated in retry.rs and by
            // `reference-client --mutant no-retry` in tests/clients_pipeline.rs
            if *id == MISMATCH_RETRY {
                continue;
            }
            assert!(MUTANTS.iter().any(|(_, r)| r == id), "{id} has no mutant");
        }
    }
}
