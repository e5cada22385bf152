//! A `subscriptions/listen` request's notification filter (patterns/subscriptions.mdx
//! § Notification Filter) as bits: which change types the client asked for explicitly, read
//! by the judge from the request and by SUB-FILTER against what the stream carries
//! (DEVIATIONS.md D-100). Pure.

use serde_json::Value;

/// `toolsListChanged: true`: `notifications/tools/list_changed`.
pub const FILTER_TOOLS: u8 = 1;
/// `promptsListChanged: true`: `notifications/prompts/list_changed`.
pub const FILTER_PROMPTS: u8 = 2;
/// `resourcesListChanged: true`: `notifications/resources/list_changed`.
pub const FILTER_RESOURCES: u8 = 4;
/// `resourceSubscriptions`, a non-empty array: `notifications/resources/updated`.
pub const FILTER_UPDATED: u8 = 8;
/// `notifications` is a valid `SubscriptionFilter`, as `SubscriptionsListenRequestParams`
/// requires (an object; each flag present a boolean, `resourceSubscriptions` present an
/// array of strings): without it the params are malformed. No notification type:
/// `requested` never reads this bit.
pub const FILTER_VALID: u8 = 16;

/// The flags of a `SubscriptionFilter`, with their bits.
pub(crate) const FLAGS: [(&str, u8); 3] = [
    ("toolsListChanged", FILTER_TOOLS),
    ("promptsListChanged", FILTER_PROMPTS),
    ("resourcesListChanged", FILTER_RESOURCES),
];

/// The filter bits of a `subscriptions/listen` `params.notifications` value: a type is asked
/// for "explicitly" only by `true` (a boolean field) or a non-empty array (D-100).
pub fn filter_of(notifications: Option<&Value>) -> u8 {
    let Some(n) = notifications.and_then(Value::as_object) else {
        return 0;
    };
    let yes = |k: &str| n.get(k) == Some(&Value::Bool(true));
    let mut bits = 0;
    for (key, bit) in FLAGS {
        if yes(key) {
            bits |= bit;
        }
    }
    let uris = n.get("resourceSubscriptions").and_then(Value::as_array);
    if uris.is_some_and(|u| !u.is_empty()) {
        bits |= FILTER_UPDATED;
    }
    let flags_ok = FLAGS
        .iter()
        .all(|(k, _)| n.get(*k).is_none_or(Value::is_boolean));
    let uris_ok = n
        .get("resourceSubscriptions")
        .is_none_or(|u| u.as_array().is_some_and(|a| a.iter().all(Value::is_string)));
    if flags_ok && uris_ok {
        bits |= FILTER_VALID;
    }
    bits
}

/// Whether a change notification `method` is of a type the filter asked for.
pub(crate) fn requested(filter: u8, method: &str) -> bool {
    let bit = match method {
        "notifications/tools/list_changed" => FILTER_TOOLS,
        "notifications/prompts/list_changed" => FILTER_PROMPTS,
        "notifications/resources/list_changed" => FILTER_RESOURCES,
        "notifications/resources/updated" => FILTER_UPDATED,
        _ => return false,
    };
    filter & bit != 0
}
