//! The credential flags shared by every command that talks to a target (`run`, `replay`,
//! `card`): `-H/--header` and `--foreign-token`, parsed into `transport::Credentials` and
//! registered with the redaction pass (`mcpdiff::secrets`) before anything is sent or written.

use mcpdiff::transport::Credentials;

/// The credential flags of every command that talks to a target (run, replay, card).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CredentialArgs {
    /// Send this header field with every request of the run ('Name: value', repeatable),
    /// e.g. -H 'Authorization: Bearer TOKEN'. Values are secrets: no output shows them;
    /// reproducers read them from $MCPDIFF_<NAME> (e.g. $MCPDIFF_AUTHORIZATION).
    #[arg(short = 'H', long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// A token issued for another audience: protected targets must refuse it (AUTH-AUDIENCE).
    /// A secret like --header values ($MCPDIFF_FOREIGN_TOKEN in reproducers).
    #[arg(long, value_name = "TOKEN")]
    pub foreign_token: Option<String>,
}

impl CredentialArgs {
    /// Parse, and register the values with the redaction pass. The error is one line.
    /// Err is a String on purpose: it is the final one-line message for `exit::fail` (the
    /// typed errors below it are already rendered), and nothing matches on it.
    pub fn load(&self) -> Result<Credentials, String> {
        let c = Credentials::parse(&self.headers, self.foreign_token.as_deref())
            .map_err(|e| e.to_string())?;
        mcpdiff::secrets::register(&c);
        if c.redactions()
            .iter()
            .any(|(v, _)| v.len() < mcpdiff::secrets::MIN_LEN)
        {
            eprintln!(
                "mcpdiff: warning: a --header value shorter than {} bytes is never stored, but \
                 an echo of it by the server cannot be redacted",
                mcpdiff::secrets::MIN_LEN
            );
        }
        if c.has_authorization() && !c.has_bearer() {
            eprintln!(
                "mcpdiff: note: the Authorization header is not 'Bearer TOKEN': the \
                 authorization rules (AUTH-*, OAuth bearer tokens) are not judged"
            );
        }
        Ok(c)
    }
}
