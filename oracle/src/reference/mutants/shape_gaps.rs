//! The answer rewrites that break one of the base-protocol and multi-round shape rules judged
//! after the first issue-23 batch (`crate::shape`; mu1): a result response without its
//! `result` member.

use super::super::response::Response;
use super::answer::{each, Answered};

pub(super) fn result_member_dropped(a: &Answered, r: &mut Response) {
    // on a list discovery does not read, so only the member's absence is judged
    if a.method() == "resources/templates/list" {
        each(r, "result", |m| {
            if let Some(o) = m.as_object_mut() {
                o.remove("result");
            }
        });
    }
}
