//! The on-disk answer cache: one small JSON file per answer, named by the hex
//! SHA-256 of the model and the full prompt, written atomically.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::answer::parse_answer;

/// The cache key of a prompt: hex SHA-256 of `model`, a newline, and the full prompt
/// (the system message, a newline, the user prompt).
pub fn cache_key(model: &str, system: &str, user: &str) -> String {
    let mut hasher = Sha256::new();
    for (i, part) in [model, system, user].into_iter().enumerate() {
        if i > 0 {
            hasher.update(b"\n");
        }
        hasher.update(part.as_bytes());
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A cached answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedAnswer {
    /// The model's reply as received.
    pub raw: String,
    /// The verdict parsed from it.
    pub answer: bool,
}

/// What one cache file holds.
#[derive(Serialize, Deserialize)]
struct Entry {
    model: String,
    answer: bool,
    raw: String,
}

/// A directory of cached answers. Missing or unreadable entries are misses.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Cache { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `key`.
    pub fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// The answer stored under `key`, if there is a well-formed one (its raw text must
    /// still parse to the stored verdict); a corrupt file is a miss.
    pub fn get(&self, key: &str) -> Option<CachedAnswer> {
        let bytes = fs::read(self.path(key)).ok()?;
        let entry: Entry = serde_json::from_slice(&bytes).ok()?;
        (parse_answer(&entry.raw) == Ok(entry.answer)).then_some(CachedAnswer {
            raw: entry.raw,
            answer: entry.answer,
        })
    }

    /// Stores an answer under `key`: written to a temporary file in the cache
    /// directory, then renamed over the entry, so readers never see half a file.
    pub fn put(&self, key: &str, model: &str, raw: &str, answer: bool) -> io::Result<()> {
        let entry = Entry {
            model: model.to_owned(),
            answer,
            raw: raw.to_owned(),
        };
        let json = serde_json::to_vec_pretty(&entry).map_err(io::Error::other)?;
        fs::create_dir_all(&self.dir)?;
        let tmp = self.dir.join(temp_name(key));
        let written = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .and_then(|mut f| f.write_all(&json).and_then(|()| f.sync_all()))
            .and_then(|()| fs::rename(&tmp, self.path(key)));
        if written.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        written
    }
}

/// A temporary file name unique to this process and call.
fn temp_name(key: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!(".{key}.{}.{n}.tmp", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_is_hex_sha256_of_model_and_prompt() {
        let k = cache_key("m", "sys", "user");
        assert_eq!(k.len(), 64);
        assert!(
            k.chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        // sha256("m\nsys\nuser")
        assert_eq!(
            k,
            "ebbfb7ef5e9746091ca139b49ff8460fa97cb69b8ceaab20c267bef60c9bb1db"
        );
        assert_ne!(k, cache_key("other", "sys", "user"));
        assert_ne!(k, cache_key("m", "sys", "user2"));
        assert_ne!(k, cache_key("m", "sys2", "user"));
        assert_eq!(k, cache_key("m", "sys", "user"));
    }

    #[test]
    fn round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path().join("nested/llm"));
        assert_eq!(cache.get("k"), None);
        cache.put("k", "m", "reason\nAnswer: Yes", true).unwrap();
        assert_eq!(
            cache.get("k"),
            Some(CachedAnswer {
                raw: "reason\nAnswer: Yes".into(),
                answer: true
            })
        );
        cache.put("k", "m", "Answer: No", false).unwrap();
        assert_eq!(cache.get("k").map(|a| a.answer), Some(false));
        let names: Vec<_> = fs::read_dir(cache.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["k.json"], "no temporary file is left behind");
    }

    #[test]
    fn corrupt_entries_are_misses() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        for bad in [
            "not json",
            "{\"model\":\"m\",\"answer\":true}",
            "{\"model\":\"m\",\"answer\":true,\"raw\":\"Answer: No\"}",
            "{\"model\":\"m\",\"answer\":true,\"raw\":\"garbage\"}",
        ] {
            fs::write(cache.path("k"), bad).unwrap();
            assert_eq!(cache.get("k"), None, "{bad}");
        }
        cache.put("k", "m", "Answer: Yes", true).unwrap();
        assert_eq!(cache.get("k").map(|a| a.answer), Some(true));
    }
}
