//! Answering a batch of questions: cache first, then at most `concurrency`
//! requests in flight on scoped threads sharing a work queue.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use crate::answer::parse_answer;
use crate::cache::{Cache, cache_key};
use crate::client::{ChatClient, RequestError};
use crate::config::{ConfigError, LlmConfig};
use crate::prompt::{SYSTEM_PROMPT, prompt};
use crate::question::Question;

/// The outcome for one question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// The model's verdict; `cached` when it came from the disk cache, no request made.
    Answered { answer: bool, cached: bool },
    /// No verdict: a one-line message saying why. The caller keeps the
    /// deterministic result.
    Failed { error: String },
}

impl Resolution {
    /// The verdict, if there is one.
    pub fn answer(&self) -> Option<bool> {
        match self {
            Resolution::Answered { answer, .. } => Some(*answer),
            Resolution::Failed { .. } => None,
        }
    }
}

/// Asks an OpenAI-compatible endpoint the questions the static analysis left open.
#[derive(Debug)]
pub struct Resolver {
    client: ChatClient,
    cache: Option<Cache>,
    model: String,
    concurrency: usize,
    warnings: Mutex<Vec<String>>,
}

/// One distinct prompt to answer; several questions may share it.
struct Job {
    key: String,
    user: String,
}

impl Resolver {
    /// A resolver for `config`. Nothing is sent until [`Resolver::resolve`].
    pub fn new(config: LlmConfig) -> Result<Self, ConfigError> {
        // Re-check fields that may have been set by hand.
        let checked = LlmConfig::new(&config.endpoint, &config.model)?;
        let config = LlmConfig {
            endpoint: checked.endpoint,
            model: checked.model,
            ..config
        };
        Ok(Resolver {
            client: ChatClient::new(&config),
            cache: config.cache_dir.clone().map(Cache::new),
            model: config.model,
            concurrency: config.concurrency.max(1),
            warnings: Mutex::new(Vec::new()),
        })
    }

    /// One [`Resolution`] per question, in order. Identical prompts are asked once;
    /// cached answers cost no request. After a failure that every later request
    /// would repeat (endpoint unreachable, HTTP 401/403/404), the questions not yet
    /// sent fail with the same message without being sent. Never panics on what
    /// the network or the disk do.
    pub fn resolve(&self, questions: &[Question]) -> Vec<Resolution> {
        let mut slot_of_key: HashMap<String, usize> = HashMap::new();
        let mut slot_of_question = Vec::with_capacity(questions.len());
        let mut slots: Vec<Option<Resolution>> = Vec::new();
        let mut jobs: Vec<(usize, Job)> = Vec::new();
        for q in questions {
            let user = prompt(q);
            let key = cache_key(&self.model, SYSTEM_PROMPT, &user);
            let slot = match slot_of_key.get(&key) {
                Some(&slot) => slot,
                None => {
                    let slot = slots.len();
                    slot_of_key.insert(key.clone(), slot);
                    let cached = self.cache.as_ref().and_then(|c| c.get(&key));
                    match cached {
                        Some(hit) => slots.push(Some(Resolution::Answered {
                            answer: hit.answer,
                            cached: true,
                        })),
                        None => {
                            slots.push(None);
                            jobs.push((slot, Job { key, user }));
                        }
                    }
                    slot
                }
            };
            slot_of_question.push(slot);
        }

        for (slot, resolution) in self.run(&jobs) {
            slots[slot] = Some(resolution);
        }
        slot_of_question
            .into_iter()
            .map(|slot| {
                slots[slot].clone().unwrap_or_else(|| Resolution::Failed {
                    error: "internal error: question left unanswered".to_owned(),
                })
            })
            .collect()
    }

    /// Problems that did not stop any answer (a cache file that could not be
    /// written), since the last call; the list is emptied.
    pub fn take_warnings(&self) -> Vec<String> {
        match self.warnings.lock() {
            Ok(mut w) => std::mem::take(&mut *w),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        }
    }

    /// Answers the jobs with at most `concurrency` requests in flight.
    fn run(&self, jobs: &[(usize, Job)]) -> Vec<(usize, Resolution)> {
        let next = AtomicUsize::new(0);
        let stop: Mutex<Option<String>> = Mutex::new(None);
        let results = Mutex::new(Vec::with_capacity(jobs.len()));
        let workers = self.concurrency.min(jobs.len());
        thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((slot, job)) = jobs.get(i) else {
                            break;
                        };
                        let stopped = lock(&stop).clone();
                        let resolution = match stopped {
                            Some(error) => Resolution::Failed { error },
                            None => self.ask(job, &stop),
                        };
                        lock(&results).push((*slot, resolution));
                    }
                });
            }
        });
        results.into_inner().unwrap_or_else(|p| p.into_inner())
    }

    /// One request; a systematic failure is recorded in `stop` for the rest.
    fn ask(&self, job: &Job, stop: &Mutex<Option<String>>) -> Resolution {
        let raw = match self.client.complete(SYSTEM_PROMPT, &job.user) {
            Ok(raw) => raw,
            Err(e) => {
                let error = e.to_string();
                if RequestError::is_systematic(&e) {
                    lock(stop).get_or_insert_with(|| error.clone());
                }
                return Resolution::Failed { error };
            }
        };
        match parse_answer(&raw) {
            Ok(answer) => {
                if let Some(cache) = &self.cache
                    && let Err(e) = cache.put(&job.key, &self.model, &raw, answer)
                {
                    lock(&self.warnings).push(format!(
                        "cannot write the LLM answer cache in {}: {e}",
                        cache.dir().display()
                    ));
                }
                Resolution::Answered {
                    answer,
                    cached: false,
                }
            }
            Err(e) => Resolution::Failed {
                error: format!("unusable reply from the LLM: {e}"),
            },
        }
    }
}

/// Locks, going on past a poisoned lock (the data are plain values).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
