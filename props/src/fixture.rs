//! The fixture `Surface` the generators target. It is the oracle's fixture (the surface the
//! reference server serves, `mcpdiff_oracle::fixture`), re-exported under the names the
//! strategies use, so generators, oracle tests and the server share one definition.

use mcpdiff_oracle::Surface;

pub use mcpdiff_oracle::fixture::{
    HEADER_TOOL as EXECUTE_SQL, MENU_TOOL as CAFE_TOOL, PLAIN_TOOL as GET_WEATHER,
    PROMPT as CODE_REVIEW, RESOURCE as CONFIG_URI, SENTINEL_URI, TEMPLATE as LOG_TEMPLATE,
};

/// The endpoint path of the fixture.
pub const ENDPOINT: &str = "/mcp";

/// The fixture surface (all capabilities the reference server advertises).
pub fn fixture_surface() -> Surface {
    mcpdiff_oracle::fixture::surface()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_matches_the_oracle_fixture() {
        assert_eq!(fixture_surface().endpoint, ENDPOINT);
        assert!(fixture_surface().tool(EXECUTE_SQL).is_some());
    }
}
