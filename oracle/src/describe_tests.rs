use super::*;
use crate::verdict::NamedVersions;

/// `x` in words, read with no versions (of a Verdict naming none).
fn shown<T: ?Sized>(x: &T) -> String
where
    for<'v> Named<'v, T>: fmt::Display,
{
    Named::new(x, None).to_string()
}

fn no_debug(s: &str) {
    for bad in [
        "{ ", "Number(", "String(", "may_omit", "Exact(", "Range(", "::",
    ] {
        assert!(!s.contains(bad), "debug output in {s:?}");
    }
}

#[test]
fn id_echo_lints_read_as_sentences() {
    let l = Lint::ErrorIdEcho {
        id: RequestId::from(23),
        may_omit: false,
    };
    assert_eq!(
        l.to_string(),
        "an error echoing id 23 (a 403 may carry no id)"
    );
    let l = Lint::ErrorIdEcho {
        id: RequestId::text("23"),
        may_omit: true,
    };
    assert_eq!(
        l.to_string(),
        "an error echoing id \"23\", or carrying no id"
    );
    assert_eq!(
        Lint::ResultIdEcho(RequestId::from(7)).to_string(),
        "a result echoing id 7"
    );
}

#[test]
fn refusals_name_status_and_code() {
    let a = Answer::RpcError {
        status: StatusSet::Exact(400),
        code: -32020,
        data: DataRule::None,
    };
    assert_eq!(shown(&a), "a refusal: 400 with JSON-RPC error -32020");
    let any = Answer::RpcError {
        status: StatusSet::ANY,
        code: -32602,
        data: DataRule::None,
    };
    let d = Demand::OneOf(smallvec::smallvec![Answer::RpcResult, any]);
    assert_eq!(
        shown(&d),
        "a result (2xx), or JSON-RPC error -32602 (any status)"
    );
    let v = Answer::RpcError {
        status: StatusSet::Exact(400),
        code: -32022,
        data: DataRule::UnsupportedVersion {
            requested: crate::verdict::Requested::new(true, false),
        },
    };
    let versions = NamedVersions {
        header: "1999-01-01".into(),
        body: "2000-01-01".into(),
    };
    assert_eq!(
        Named::new(&v, Some(&versions)).to_string(),
        "a refusal: 400 with JSON-RPC error -32022, data.requested \"1999-01-01\" and \
         data.supported listing the supported versions"
    );
    assert_eq!(
        shown(&Answer::HttpStatus {
            status: StatusSet::Exact(403)
        }),
        "a refusal: 403"
    );
    assert_eq!(
        shown(&Answer::HttpStatus {
            status: StatusSet::Range(400, 499)
        }),
        "a 4xx status"
    );
}

#[test]
fn no_expectation_reads_like_debug_output() {
    let answers = [
        Answer::RpcResult,
        Answer::OpenStream,
        Answer::Accepted,
        Answer::AnyError,
        Answer::NotAnError,
        Answer::HttpStatus {
            status: StatusSet::ERROR,
        },
        Answer::RpcError {
            status: StatusSet::ERROR,
            code: -32600,
            data: DataRule::RequiredCapabilities,
        },
    ];
    for a in &answers {
        no_debug(&shown(a));
    }
    let lints = [
        Lint::NoSessionId,
        Lint::RequestContentType,
        Lint::SseXAccel,
        Lint::SseNoRequests,
        Lint::NoUndefinedReservedCode,
        Lint::NoRetiredCode,
        Lint::NoLegacyRangeCode,
        Lint::ResultType,
        Lint::ErrorShape,
        Lint::ResultIdEcho(RequestId::text("a")),
        Lint::ErrorIdEcho {
            id: RequestId::from(-1),
            may_omit: false,
        },
        Lint::ServerInfo,
        Lint::AllowOn405,
        Lint::NoResponseToNotification,
        Lint::Content(crate::content::ContentCheck::CacheHints),
        Lint::ErrorInt,
        Lint::NoNewReservedCode,
        Lint::MetaKeys,
        Lint::TraceContext,
        Lint::KnownResultType,
        Lint::InputRequiredUnsupported,
        Lint::InputRequiredCarries,
        Lint::InputRequestTypes,
        Lint::NotificationNoId,
        Lint::ExtensionIds,
        Lint::JsonRpcVersion,
        Lint::ResultField,
        Lint::InputKeysUnique,
        Lint::CapabilityCodeMeaning { declared: 0 },
        Lint::MissingCapabilityShape,
        Lint::NoUndeclaredInput { declared: 0 },
        Lint::ExtensionFallback,
        Lint::PageScope("public".into()),
        Lint::NoUndeclaredLog,
    ];
    for l in &lints {
        let s = shown(&Demand::Lint(l.clone()));
        let debug = format!("{l:?}");
        let variant = debug.split(['(', ' ', '{']).next().unwrap_or(&debug);
        assert!(!s.contains(variant), "{s:?} names the variant {variant}");
        no_debug(&s);
    }
    for t in [
        TransportFailure::Refused,
        TransportFailure::Reset,
        TransportFailure::Timeout,
        TransportFailure::Garbage,
        TransportFailure::OversizeHeaders,
    ] {
        no_debug(&t.to_string());
        assert_ne!(t.to_string(), format!("{t:?}"));
    }
}
