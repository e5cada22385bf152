//! Golden files for every report renderer, and the checks CI consumers apply to them.
//!
//! Each renderer (Markdown review, JUnit XML, HTML, terminal summary) renders the fixed runs
//! `tests/data/run-seed1.json` (reference + four mutants, written before per-revision entries
//! existed: they are derived on reading) and `tests/data/run-revisions.json` (the dual-era
//! reference, a modern mutant, a dual-era server with a legacy mutant and a
//! 2025-11-25-only server: every revision status); the result must equal
//! `tests/data/golden/<stem>.{md,xml,html,txt}` byte for byte. On a mismatch the test prints a unified diff. After an intended
//! change to a renderer, rewrite the files and review the diff in git:
//!
//!     UPDATE_GOLDEN=1 cargo test --test report_golden
//!
//! Besides: the JUnit file validates against the Jenkins/Ant JUnit schema
//! (`tests/data/junit.xsd`, with `xmllint` when it is on PATH), and every Markdown table is a
//! well-formed GFM table even when a target name carries `|`, backslashes, backticks and
//! line breaks (checked structurally here, and with `cmark-gfm` when it is on PATH).

use mcpdiff::report::{html, junit, markdown, terminal, RunReport};
use similar::TextDiff;
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/run-seed1.json");
const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
/// The fixtures with golden renders, by file stem.
const STEMS: [&str; 2] = ["run-seed1", "run-revisions"];
const GOLDEN_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden");
const XSD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/junit.xsd");

fn fixture() -> RunReport {
    let text = std::fs::read_to_string(FIXTURE).expect("fixture present");
    serde_json::from_str(&text).expect("fixture is an mcpdiff-run/1 report")
}

/// Every golden render: (file extension, rendered text).
fn renders(r: &RunReport) -> Vec<(&'static str, String)> {
    vec![
        ("md", markdown::render(r)),
        ("xml", junit::render(r, false)),
        ("html", html::render(r)),
        ("txt", terminal::render(r, false)),
    ]
}

fn fixture_named(stem: &str) -> RunReport {
    let path = Path::new(DATA_DIR).join(format!("{stem}.json"));
    let text = std::fs::read_to_string(path).expect("fixture present");
    serde_json::from_str(&text).expect("fixture is an mcpdiff-run/1 report")
}

fn golden_path(stem: &str, ext: &str) -> PathBuf {
    Path::new(GOLDEN_DIR).join(format!("{stem}.{ext}"))
}

#[test]
fn every_report_matches_its_golden_file() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| !v.is_empty() && v != "0");
    let mut failed = Vec::new();
    for (stem, ext, got) in STEMS.iter().flat_map(|stem| {
        renders(&fixture_named(stem))
            .into_iter()
            .map(move |(e, g)| (*stem, e, g))
    }) {
        let path = golden_path(stem, ext);
        if update {
            std::fs::create_dir_all(GOLDEN_DIR).expect("create golden dir");
            std::fs::write(&path, &got).expect("write golden file");
            eprintln!("report_golden: wrote {}", path.display());
            continue;
        }
        let want = match std::fs::read_to_string(&path) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("report_golden: cannot read {}: {e}", path.display());
                failed.push(format!("{stem}.{ext}"));
                continue;
            }
        };
        if want != got {
            let name = format!("tests/data/golden/{stem}.{ext}");
            let diff = TextDiff::from_lines(&want, &got);
            eprintln!(
                "report_golden: {name} differs from the render (- golden, + rendered):\n{}",
                diff.unified_diff()
                    .context_radius(3)
                    .header(&name, &format!("{name} (rendered)"))
            );
            failed.push(format!("{stem}.{ext}"));
        }
    }
    assert!(
        failed.is_empty(),
        "renders differ from their golden files: {failed:?} (diffs above). If the change is \
         intended: UPDATE_GOLDEN=1 cargo test --test report_golden, then review the git diff"
    );
}

#[test]
fn renders_are_deterministic() {
    // same input, same bytes: no clock, no hash order, no process-dependent state
    let (a, b) = (renders(&fixture()), renders(&fixture()));
    for ((ext, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{ext} render differs between two calls");
    }
    // the strict JUnit variant too
    let r = fixture();
    assert_eq!(junit::render(&r, true), junit::render(&r, true));
}

/// `xmllint` on PATH, or a note saying why the check is skipped.
fn xmllint() -> Option<&'static str> {
    let ok = Command::new("xmllint")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!(
            "report_golden: xmllint not on PATH (Debian: apt-get install libxml2-utils); \
             skipping the JUnit schema check"
        );
    }
    ok.then_some("xmllint")
}

#[test]
fn junit_validates_against_the_jenkins_schema() {
    let Some(bin) = xmllint() else { return };
    let r = fixture();
    let revisions = fixture_named("run-revisions");
    let dir = std::env::temp_dir().join(format!("mcpdiff-junit-xsd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // also a target whose name and findings carry XML-hostile text
    let mut hostile = r.clone();
    hostile.targets[0].name = "bad<&>\"' ]]> \u{1}".into();
    if let Some(f) = hostile
        .targets
        .iter_mut()
        .flat_map(|t| &mut t.findings)
        .next()
    {
        f.reproducer = "curl ']]></failure>\u{1}\u{7}' <!-- -->".into();
    }
    for (label, xml) in [
        ("default", junit::render(&r, false)),
        ("strict", junit::render(&r, true)),
        ("hostile", junit::render(&hostile, true)),
        ("revisions", junit::render(&revisions, false)),
        ("revisions-strict", junit::render(&revisions, true)),
    ] {
        let path = dir.join(format!("junit-{label}.xml"));
        std::fs::write(&path, &xml).expect("write junit");
        let out = Command::new(bin)
            .args(["--noout", "--schema", XSD])
            .arg(&path)
            .output()
            .expect("run xmllint");
        assert!(
            out.status.success(),
            "JUnit ({label}) does not validate against tests/data/junit.xsd:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Split one GFM table row into cells the way cmark-gfm does: a backslash escapes the next
/// character, an unescaped `|` ends a cell, the leading and trailing pipes are optional.
fn gfm_cells(line: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut chars = line.trim().chars().peekable();
    if chars.peek() == Some(&'|') {
        chars.next();
    }
    let mut trailing_pipe = false;
    while let Some(c) = chars.next() {
        trailing_pipe = false;
        match c {
            '\\' => {
                cur.push(c);
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            '|' => {
                cells.push(std::mem::take(&mut cur).trim().to_string());
                trailing_pipe = true;
            }
            c => cur.push(c),
        }
    }
    if !trailing_pipe {
        cells.push(cur.trim().to_string());
    }
    cells
}

/// Every table in `md` (outside fenced code): a header row, a delimiter row with as many
/// cells, every body row with as many cells. Returns the number of tables.
fn check_gfm_tables(md: &str) -> usize {
    let mut tables = 0;
    let mut fence: Option<String> = None;
    let lines: Vec<&str> = md.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let t = l.trim_start();
        if let Some(f) = &fence {
            if t.starts_with(f.as_str()) && t.trim_start_matches('`').trim().is_empty() {
                fence = None;
            }
            i += 1;
            continue;
        }
        if t.starts_with("```") {
            fence = Some(t.chars().take_while(|&c| c == '`').collect());
            i += 1;
            continue;
        }
        if !t.starts_with('|') {
            i += 1;
            continue;
        }
        tables += 1;
        let header = gfm_cells(l);
        let delim = lines.get(i + 1).map(|d| gfm_cells(d)).unwrap_or_default();
        assert!(
            !delim.is_empty()
                && delim.iter().all(|c| {
                    let c = c.trim_matches(':');
                    !c.is_empty() && c.chars().all(|x| x == '-')
                }),
            "table at line {} has no delimiter row: {:?}",
            i + 1,
            lines.get(i + 1)
        );
        assert_eq!(
            header.len(),
            delim.len(),
            "table at line {}: header and delimiter rows differ in cells:\n{l}\n{}",
            i + 1,
            lines[i + 1]
        );
        i += 2;
        while i < lines.len() && lines[i].trim_start().starts_with('|') {
            let row = gfm_cells(lines[i]);
            assert_eq!(
                row.len(),
                header.len(),
                "table row at line {} has {} cells, the header {}:\n{}",
                i + 1,
                row.len(),
                header.len(),
                lines[i]
            );
            i += 1;
        }
        // a row broken by a newline in a cell would continue as a non-table line
        if let Some(next) = lines.get(i) {
            assert!(
                next.trim().is_empty(),
                "table ending at line {i} is followed by text on the next line (a cell with a \
                 line break?): {next:?}"
            );
        }
    }
    assert!(fence.is_none(), "unclosed code fence");
    tables
}

/// Render with `cmark-gfm -e table` when it is on PATH: each table's rows have as many cells
/// as its header. Returns false when cmark-gfm is absent.
fn cmark_tables_ok(md: &str, expect_tables: usize) -> bool {
    let Ok(mut child) = Command::new("cmark-gfm")
        .args(["-e", "table"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
    else {
        eprintln!("report_golden: cmark-gfm not on PATH; structural table check only");
        return false;
    };
    use std::io::Write as _;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(md.as_bytes())
        .expect("feed cmark-gfm");
    let out = child.wait_with_output().expect("cmark-gfm output");
    let html = String::from_utf8_lossy(&out.stdout);
    let tables: Vec<&str> = html.split("<table>").skip(1).collect();
    assert_eq!(tables.len(), expect_tables, "cmark-gfm tables:\n{html}");
    for t in tables {
        let t = t.split("</table>").next().unwrap_or("");
        let heads = t.matches("<th>").count() + t.matches("<th ").count();
        for row in t.split("<tr>").skip(2) {
            assert_eq!(row.matches("<td").count(), heads, "row {row}");
        }
    }
    true
}

#[test]
fn markdown_tables_are_gfm_tables() {
    let r = fixture();
    let md = markdown::render(&r);
    let n = check_gfm_tables(&md);
    assert!(n >= 1, "the review has its summary table");
    cmark_tables_ok(&md, n);

    // names that break naive tables: pipes (also escaped ones), backslashes, backticks,
    // line breaks, control bytes
    let mut hostile = r.clone();
    let names = [
        "a|b",
        "a\\|b\\",
        "`x|y`",
        "line\nbreak\r|",
        "\\",
        "tab\there\u{1}",
    ];
    for (t, name) in hostile.targets.iter_mut().zip(names) {
        t.name = name.to_string();
    }
    let md = markdown::render(&hostile);
    let n = check_gfm_tables(&md);
    assert!(n >= 1);
    cmark_tables_ok(&md, n);
    let summary: Vec<&str> = md.lines().filter(|l| l.starts_with("| ")).collect();
    // one summary row per (target, revision): every target of the fixture has both
    for (row, name) in summary
        .iter()
        .skip(2)
        .step_by(mcpdiff_oracle::Revision::ALL.len())
        .zip(names)
    {
        let first = &gfm_cells(row)[0];
        // the cell still names the target: its letters survive
        let letters: String = name.chars().filter(|c| c.is_alphanumeric()).collect();
        let kept: String = first.chars().filter(|c| c.is_alphanumeric()).collect();
        assert!(
            kept.contains(&letters),
            "cell {first:?} lost the name {name:?}"
        );
    }
}
