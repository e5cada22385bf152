//! The tool-set generator: tool definitions whose `inputSchema`s carry
//! `x-mcp-header` annotations, valid and invalid, each labelled by the oracle, with the call
//! arguments to try on them.
//!
//! `generate_toolset(seed, count)` is a pure function: tool `i` depends only on `(seed, i)`,
//! so a longer set extends a shorter one with the same seed, and a file can always be
//! regenerated. The strategies ([`planned_tool`], [`toolset`]) are the same generator for
//! property tests. What the generator *meant* (the planted [`SchemaDefect`], or none) travels next
//! to the oracle's label in [`PlannedTool`], so a test can check that the two agree.
//!
//! Files: `schema.rs` (the schema families), `calls.rs` (call arguments).

mod calls;
mod schema;

pub use calls::{calls_for, leaves, SchemaLeaf};
pub use schema::{planned_schema, PlannedSchema, BAD_TOKENS, EDGE_TOKENS};

use crate::strategies::schemas::SchemaDefect;
use mcpdiff_oracle::annotations::AnnotationError;
use mcpdiff_oracle::toolset::{GeneratedTool, ToolSet};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};

/// A generated tool and what the generator meant it to be.
#[derive(Clone, Debug)]
pub struct PlannedTool {
    /// Labelled by the oracle (`GeneratedTool::labelled`), never by the generator.
    pub tool: GeneratedTool,
    /// The defect the generator planted (`None`: meant to be valid).
    pub intended: Option<SchemaDefect>,
}

/// The name of the `index`-th generated tool (unique in a set; plain ASCII so `Mcp-Name`
/// needs no sentinel and the name itself is never the thing under test).
pub fn tool_name(index: usize) -> String {
    format!("gen_{index:04}")
}

/// Whether the oracle's reason is the one `defect` plants.
pub fn reason_matches(defect: SchemaDefect, reason: &AnnotationError) -> bool {
    matches!(
        (defect, reason),
        (SchemaDefect::Empty, AnnotationError::Empty { .. })
            | (SchemaDefect::NotAToken, AnnotationError::NotAToken { .. })
            | (SchemaDefect::NotAString, AnnotationError::NotAString { .. })
            | (SchemaDefect::Duplicate, AnnotationError::Duplicate { .. })
            | (
                SchemaDefect::NotPrimitive,
                AnnotationError::NotPrimitive { .. }
            )
            | (
                SchemaDefect::UnsafeBounds,
                AnnotationError::UnsafeIntegerBounds { .. }
            )
            | (
                SchemaDefect::Unreachable,
                AnnotationError::NotStaticallyReachable { .. }
            )
    )
}

/// One tool named `name`: a planned schema, its calls, labelled by the oracle.
pub fn planned_tool(name: String) -> BoxedStrategy<PlannedTool> {
    planned_schema()
        .prop_flat_map(move |planned| {
            let calls = calls_for(&planned.schema);
            (Just(planned), Just(name.clone()), calls)
        })
        .prop_map(|(planned, name, calls)| {
            let definition = json!({
                "name": name,
                "description": planned.note,
                "inputSchema": planned.schema,
            });
            PlannedTool {
                tool: GeneratedTool::labelled(definition, calls, Some(planned.note)),
                intended: planned.intended,
            }
        })
        .boxed()
}

/// A whole tool set of `count` tools (names `gen_0000`, `gen_0001`, ...).
pub fn toolset(count: std::ops::Range<usize>) -> BoxedStrategy<Vec<PlannedTool>> {
    count
        .prop_flat_map(|n| {
            (0..n)
                .map(|i| planned_tool(tool_name(i)))
                .collect::<Vec<_>>()
        })
        .boxed()
}

/// The `index`-th tool of the set generated from `seed`.
pub fn planned_tool_for(seed: u64, index: usize) -> PlannedTool {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&(index as u64).to_le_bytes());
    key[16..24].copy_from_slice(b"toolgen\0");
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &key);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    match planned_tool(tool_name(index)).new_tree(&mut runner) {
        Ok(tree) => tree.current(),
        // the filters inside (sentinel-free plain strings) reject rarely and are retried by
        // the runner; should a draw still fail, fall back to a minimal valid tool
        Err(_) => PlannedTool {
            tool: GeneratedTool::labelled(
                json!({"name": tool_name(index), "inputSchema": {"type": "object"}}),
                Vec::new(),
                Some("fallback: generation failed".into()),
            ),
            intended: None,
        },
    }
}

/// A deterministic tool set: `count` tools from `seed`.
pub fn generate_toolset(seed: u64, count: usize) -> ToolSet {
    let tools = (0..count).map(|i| planned_tool_for(seed, i).tool).collect();
    ToolSet::new(Some(seed), tools)
}

/// The `inputSchema` of a tool definition (JSON null when absent).
pub fn input_schema(definition: &Value) -> &Value {
    definition.get("inputSchema").unwrap_or(&Value::Null)
}
