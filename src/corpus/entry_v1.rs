//! Entries of the first schemas read into today's form: `mcpdiff-corpus/1` (header names,
//! values and body all Base64 strings) and `mcpdiff-client-corpus/1` (header values and body
//! Base64). The bytes are decoded and written as a `Case` writes them (a string when UTF-8,
//! else `{"base64": ...}`), and the schema id raised to `/2`: a plain string means text in
//! `/2` and Base64 in `/1`, so only the id tells them apart. A file is only rewritten in the
//! new form when a save or `--bless` changes it anyway.
//!
//! Also the check of a current entry's byte fields, so that a bad one is named
//! (`request.headers[3].value`) rather than reported as a bare serde error.

use super::client::{CLIENT_SCHEMA, CLIENT_SCHEMA_V1};
use super::entry::{SCHEMA, SCHEMA_V1};
use super::error::CorpusError;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use mcpdiff_oracle::case_json::{Bytes, Text};
use serde_json::Value;

/// Bring the JSON of a server entry (`schema` already known to be v1 or current) to the
/// current form, or say which byte field is bad.
pub fn upgrade(value: &mut Value) -> Result<(), CorpusError> {
    let v1 = value.get("schema").and_then(Value::as_str) == Some(SCHEMA_V1);
    let Some(request) = value.get_mut("request").and_then(Value::as_object_mut) else {
        return Err(CorpusError::NoRequest);
    };
    if v1 {
        if let Some(headers) = request.get_mut("headers").and_then(Value::as_array_mut) {
            for (i, h) in headers.iter_mut().enumerate() {
                let field = |k: &str| -> Result<Value, CorpusError> {
                    let b64 = h.get(k).and_then(Value::as_str).ok_or_else(|| {
                        CorpusError::NotAString {
                            field: format!("request.headers[{i}].{k}"),
                            why: "missing or not a string",
                        }
                    })?;
                    text(&format!("request.headers[{i}].{k}"), b64)
                };
                *h = Value::Array(vec![field("name")?, field("value")?]);
            }
        }
        if let Some(body) = request.get_mut("body") {
            let b64 = body.as_str().ok_or_else(|| CorpusError::NotAString {
                field: "request.body".into(),
                why: "not a string (Base64 in mcpdiff-corpus/1)",
            })?;
            *body = text("request.body", b64)?;
        }
        value["schema"] = Value::String(SCHEMA.to_string());
        return Ok(());
    }
    check_bytes(request)
}

/// Bring the JSON of a client entry (`schema` already known to be v1 or current) to the
/// current form, or say which byte field is bad.
pub fn upgrade_client(value: &mut Value) -> Result<(), CorpusError> {
    let v1 = value.get("schema").and_then(Value::as_str) == Some(CLIENT_SCHEMA_V1);
    let clients = value
        .get_mut("clients")
        .and_then(Value::as_array_mut)
        .map_or(&mut [][..], Vec::as_mut_slice);
    for (i, c) in clients.iter_mut().enumerate() {
        let requests = c
            .get_mut("requests")
            .and_then(Value::as_array_mut)
            .map_or(&mut [][..], Vec::as_mut_slice);
        for (j, r) in requests.iter_mut().enumerate() {
            let at = format!("clients[{i}].requests[{j}]");
            let headers = r
                .get_mut("headers")
                .and_then(Value::as_array_mut)
                .map_or(&mut [][..], Vec::as_mut_slice);
            for (k, h) in headers.iter_mut().enumerate() {
                if let Some(v) = h.get_mut("value") {
                    bytes_field(&format!("{at}.headers[{k}].value"), v, v1)?;
                }
            }
            if let Some(b) = r.get_mut("body") {
                bytes_field(&format!("{at}.body"), b, v1)?;
            }
        }
    }
    if v1 {
        value["schema"] = Value::String(CLIENT_SCHEMA.to_string());
    }
    Ok(())
}

/// One byte field: a v1 Base64 string rewritten in today's form, or a current one checked.
fn bytes_field(what: &str, v: &mut Value, v1: bool) -> Result<(), CorpusError> {
    if v1 {
        let b64 = v.as_str().ok_or_else(|| CorpusError::NotAString {
            field: what.to_string(),
            why: "not a string (Base64 in a /1 entry)",
        })?;
        *v = text(what, b64)?;
        return Ok(());
    }
    serde_json::from_value::<Bytes>(v.clone())
        .map(|_| ())
        .map_err(|e| bad_bytes(what.to_string(), e))
}

fn bad_bytes(field: String, e: serde_json::Error) -> CorpusError {
    CorpusError::BadBytes {
        field,
        error: e.to_string(),
    }
}

/// Base64 text of a v1 field, decoded and written in today's form.
fn text(what: &str, b64: &str) -> Result<Value, CorpusError> {
    let bytes = STANDARD.decode(b64).map_err(|e| CorpusError::BadBase64 {
        field: what.to_string(),
        error: e.to_string(),
    })?;
    serde_json::to_value(Text(&bytes)).map_err(|e| bad_bytes(what.to_string(), e))
}

/// Every byte field of a current request reads, or the first bad one is named.
fn check_bytes(request: &serde_json::Map<String, Value>) -> Result<(), CorpusError> {
    let bytes = |what: String, v: &Value| {
        serde_json::from_value::<Bytes>(v.clone())
            .map(|_| ())
            .map_err(|e| bad_bytes(what, e))
    };
    if let Some(headers) = request.get("headers").and_then(Value::as_array) {
        for (i, h) in headers.iter().enumerate() {
            match h.as_array().map(Vec::as_slice) {
                Some([n, v]) => {
                    bytes(format!("request.headers[{i}].name"), n)?;
                    bytes(format!("request.headers[{i}].value"), v)?;
                }
                _ => return Err(CorpusError::NotAPair { index: i }),
            }
        }
    }
    if let Some(body) = request.get("body") {
        bytes("request.body".into(), body)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_v1_request_reads_as_text_and_marked_bytes() {
        let mut v = json!({
            "schema": SCHEMA_V1,
            "request": {
                "method": "POST", "path": "/mcp",
                // "Origin": "http://evil.example"; "X-Bin": ff 00
                "headers": [
                    {"name": "T3JpZ2lu", "value": "aHR0cDovL2V2aWwuZXhhbXBsZQ=="},
                    {"name": "WC1CaW4=", "value": "/wA="}
                ],
                "body": "e30="
            }
        });
        upgrade(&mut v).expect("upgrades");
        assert_eq!(v["schema"], SCHEMA);
        assert_eq!(
            v["request"]["headers"],
            json!([["Origin", "http://evil.example"], ["X-Bin", {"base64": "/wA="}]])
        );
        assert_eq!(v["request"]["body"], "{}");
    }

    #[test]
    fn new_entries_are_written_in_the_current_form() {
        let case = mcpdiff_oracle::Case::post("/mcp", &[("Origin", "http://evil.example")], "{}");
        let e = super::super::Entry::new(
            vec!["SHTTP-ORIGIN-403".into()],
            "test",
            &case,
            &mcpdiff_oracle::fixture::surface(),
        );
        let v = serde_json::to_value(&e).expect("serializes");
        assert_eq!(v["schema"], SCHEMA);
        assert_eq!(
            v["request"]["headers"],
            json!([["Origin", "http://evil.example"]])
        );
        assert_eq!(v["request"]["body"], "{}");
    }

    #[test]
    fn a_v1_client_request_reads_as_text() {
        let mut v = json!({
            "schema": CLIENT_SCHEMA_V1,
            "clients": [{"requests": [{
                "method": "POST",
                "headers": [{"name": "mcp-param-region", "value": "dXMtd2VzdA=="}],
                "body": "e30="
            }]}]
        });
        upgrade_client(&mut v).expect("upgrades");
        assert_eq!(v["schema"], CLIENT_SCHEMA);
        let r = &v["clients"][0]["requests"][0];
        assert_eq!(r["headers"][0]["value"], "us-west");
        assert_eq!(r["body"], "{}");
        let mut bad = json!({"schema": CLIENT_SCHEMA_V1,
            "clients": [{"requests": [{"headers": [], "body": "%"}]}]});
        let e = upgrade_client(&mut bad)
            .expect_err("bad Base64")
            .to_string();
        assert!(e.starts_with("clients[0].requests[0].body"), "{e}");
    }

    #[test]
    fn bad_fields_are_named() {
        let mut v1 = json!({"schema": SCHEMA_V1, "request": {"headers": [], "body": "%%"}});
        let e = upgrade(&mut v1).expect_err("bad Base64").to_string();
        assert!(e.starts_with("request.body is not valid Base64"), "{e}");
        let mut v2 = json!({"schema": SCHEMA, "request": {
            "headers": [["A", "b"], ["C", {"base64": "%%"}]], "body": ""}});
        let e = upgrade(&mut v2).expect_err("bad marked bytes").to_string();
        assert!(e.starts_with("request.headers[1].value"), "{e}");
    }
}
