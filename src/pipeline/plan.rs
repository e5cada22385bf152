//! What a run runs (`RunPlan`): with no selection, everything bundled (the in-process
//! reference server and mutants, every bundled SDK server target, every bundled client
//! target); with any selection, exactly what it names.
//!
//! Selections: URLs; `--bundled [NAME,...]` (bundled server targets, all without a name);
//! `--mutants NAME,...` (the in-process reference server and those mutants); `--no-bundled`
//! alone (the in-process reference server and the default mutants; beside `--clients` it only
//! says "no bundled server", as it always did); `--clients [NAME,...]` (bundled client
//! targets, all without a name). Pure, so the tests check it without installing SDKs.

/// The parts of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunPlan {
    /// Start the in-process reference server and the mutants.
    pub in_process: bool,
    /// Bundled server targets to bring up (empty list: all); `None`: none.
    pub bundled: Option<Vec<String>>,
    /// Bundled client targets to run (empty list: all); `None`: none.
    pub clients: Option<Vec<String>>,
}

impl RunPlan {
    /// Only client targets: no server matrix at all.
    pub fn clients_only(&self, urls: &[String]) -> bool {
        self.clients.is_some() && !self.in_process && self.bundled.is_none() && urls.is_empty()
    }
}

/// The plan of `mcpdiff run` for these flags.
pub fn plan(
    urls: &[String],
    bundled: Option<&[String]>,
    no_bundled: bool,
    mutants: Option<&[String]>,
    clients: Option<&[String]>,
) -> RunPlan {
    let selected = !urls.is_empty()
        || bundled.is_some()
        || no_bundled
        || mutants.is_some()
        || clients.is_some();
    if !selected {
        return RunPlan {
            in_process: true,
            bundled: Some(Vec::new()),
            clients: Some(Vec::new()),
        };
    }
    RunPlan {
        in_process: mutants.is_some() || (no_bundled && urls.is_empty() && clients.is_none()),
        bundled: bundled.map(<[String]>::to_vec),
        clients: clients.map(<[String]>::to_vec),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn no_selection_runs_everything_bundled() {
        let p = plan(&[], None, false, None, None);
        assert_eq!(
            p,
            RunPlan {
                in_process: true,
                bundled: Some(Vec::new()),
                clients: Some(Vec::new())
            }
        );
        assert!(!p.clients_only(&[]));
    }

    #[test]
    fn a_named_bundled_target_runs_alone() {
        let py = names(&["python-sdk"]);
        let p = plan(&[], Some(&py), false, None, None);
        assert_eq!(
            p,
            RunPlan {
                in_process: false,
                bundled: Some(py.clone()),
                clients: None
            },
            "no reference server, no mutants, no client target"
        );
        // all bundled servers, still no clients nor in-process servers
        let p = plan(&[], Some(&[]), false, None, None);
        assert_eq!((p.in_process, p.clients), (false, None));
    }

    #[test]
    fn clients_run_when_named() {
        let py = names(&["python-sdk"]);
        let ts = names(&["ts-client"]);
        let p = plan(&[], Some(&py), false, None, Some(&ts));
        assert_eq!((p.bundled, p.clients), (Some(py), Some(ts.clone())));
        let p = plan(&[], None, false, None, Some(&ts));
        assert!(p.clients_only(&[]));
        let url = names(&["http://127.0.0.1:1/mcp"]);
        let p = plan(&url, None, false, None, Some(&[]));
        assert!(!p.clients_only(&url) && !p.in_process && p.bundled.is_none());
    }

    #[test]
    fn urls_mutants_and_no_bundled() {
        let url = names(&["http://127.0.0.1:1/mcp"]);
        let p = plan(&url, None, false, None, None);
        assert_eq!(
            p,
            RunPlan {
                in_process: false,
                bundled: None,
                clients: None
            }
        );
        let p = plan(&[], None, true, None, None);
        assert_eq!((p.in_process, &p.bundled, &p.clients), (true, &None, &None));
        let m = names(&["origin-unchecked"]);
        let p = plan(&[], None, false, Some(&m), None);
        assert_eq!((p.in_process, &p.bundled, &p.clients), (true, &None, &None));
        // a URL beside named mutants: both
        assert!(plan(&url, None, false, Some(&m), None).in_process);
        // `--clients --no-bundled`: the clients alone
        assert!(plan(&[], None, true, None, Some(&[])).clients_only(&[]));
    }
}
