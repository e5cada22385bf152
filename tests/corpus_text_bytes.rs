//! The committed corpus is `mcpdiff-corpus/1` and `mcpdiff-client-corpus/1` (byte sequences
//! Base64); mcpdiff writes `/2` (text as JSON strings, other bytes `{"base64": ...}`). Every
//! committed entry, written again in the current form, reads back as the same entry (server
//! entries: the same case, so the same file name), and the rewritten folder replays with no
//! drift.

use mcpdiff::corpus::store::{self, load_dir, load_file, load_item, Item};
use mcpdiff::corpus::{CLIENT_SCHEMA, SCHEMA};
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcpdiff-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn committed_entries_rewritten_as_text_read_back_the_same_and_replay_clean() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let dir = scratch("corpus-v2");
    let (mut servers, mut clients) = (0, 0);
    let mut marked = 0;
    for item in load_dir(&committed).expect("corpus/ lists") {
        let l = match item.expect("every committed file reads") {
            Item::Server(l) => l,
            Item::Client(c) => {
                // client entries: values and bodies as text too, read back the same
                assert_eq!(c.entry.schema, CLIENT_SCHEMA, "read into the current form");
                let path = dir.join(c.path.file_name().expect("file name"));
                store::write(&path, &c.entry).expect("write");
                let json: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&path).expect("read"))
                        .expect("JSON");
                for r in json["clients"][0]["requests"]
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    assert!(r["body"].is_string(), "{r}");
                }
                match load_item(&path).expect("reads back") {
                    Item::Client(back) => assert_eq!(back.entry, c.entry),
                    Item::Server(_) | Item::Legacy(_) => {
                        panic!("a client entry read as another kind")
                    }
                }
                clients += 1;
                continue;
            }
            // sequence entries store steps and answers, no request bytes
            Item::Legacy(_) => continue,
        };
        let name = l.path.file_name().expect("file name").to_owned();
        let entry = l.entry.clone();
        assert_eq!(entry.schema, SCHEMA, "read into the current form");
        let path = dir.join(&name);
        store::write(&path, &entry).expect("write");
        let text = std::fs::read_to_string(&path).expect("read");
        let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert!(json["request"]["headers"][0][0].is_string(), "{text}");
        marked += usize::from(text.contains("\"base64\""));
        let back = load_file(&path).expect("reads back").entry;
        assert_eq!(back, l.entry, "{}", path.display());
        assert_eq!(
            back.file_name().ok().as_deref(),
            name.to_str(),
            "same case, same name"
        );
        servers += 1;
    }
    assert!(servers > 50, "{servers} server entries");
    assert!(clients >= 5, "{clients} client entries");
    eprintln!(
        "corpus: {servers} server and {clients} client entries rewritten, {marked} with bytes \
         that are not UTF-8"
    );

    let out = Command::new(env!("CARGO_BIN_EXE_mcpdiff"))
        .args(["replay", dir.to_str().expect("utf-8"), "--reference"])
        .output()
        .expect("mcpdiff replay runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(&format!(
            "replay: {} case(s), 0 unreadable, 0 drifted",
            servers + clients
        )),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
