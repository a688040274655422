//! Files and facts every command shares: gzip-or-plain reading, atomic writes, JSON manifests,
//! the machine's description, the date and the command line as manifests record them.

use anyhow::{Context, Result};
use puzzlelab::checksum::fnv1a_hex;
use serde::{de::DeserializeOwned, Serialize};
use std::io::{Read, Write};

/// The command line as manifests record it: `puzzlelab` and the arguments as given.
pub fn command_line() -> String {
    std::iter::once("puzzlelab".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A file's bytes, gunzipped when it is gzip-compressed.
pub fn read_maybe_gzip(path: &str) -> Result<Vec<u8>> {
    let raw = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
    if !raw.starts_with(&[0x1f, 0x8b]) {
        return Ok(raw);
    }
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut out)
        .with_context(|| format!("{path}: not valid gzip"))?;
    Ok(out)
}

/// `bytes` gzip-compressed at the best level when `path` ends in `.gz`, else as they are.
pub fn gzip_for(path: &str, bytes: Vec<u8>) -> Vec<u8> {
    if !path.ends_with(".gz") {
        return bytes;
    }
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(&bytes).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

/// Writes `bytes` to `path` through a temporary file, so that a killed run never leaves half a
/// file (models, checkpoints and manifests).
pub fn write_atomically(path: &str, bytes: &[u8]) -> Result<()> {
    let temporary = format!("{path}.partial");
    std::fs::write(&temporary, bytes).with_context(|| format!("{temporary}: cannot write"))?;
    std::fs::rename(&temporary, path).with_context(|| format!("{path}: cannot write"))
}

/// Opens a data file that a command appends to line by line, and returns its whole lines (empty
/// when there is no file) and the file, open to append. `check` sees the lines first (and the
/// unfinished last line a stopped run may have left, as `cut`), and may refuse the file; only
/// then is that last line dropped, to be made again. A file without lines gets `header` (a
/// comment line) first.
pub fn continue_lines(
    path: &str,
    what: &str,
    header: &str,
    check: impl FnOnce(&str, &str) -> Result<()>,
) -> Result<(String, std::fs::File)> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| path.to_string()),
    };
    let end = text.rfind('\n').map_or(0, |i| i + 1);
    let (complete, cut) = text.split_at(end);
    check(complete, cut)?;
    if !cut.is_empty() {
        std::fs::write(path, complete).with_context(|| path.to_string())?;
        eprintln!("{what}: dropped an unfinished last line of {path}");
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| path.to_string())?;
    if complete.trim().is_empty() {
        use std::io::Write;
        file.write_all(format!("{header}\n").as_bytes())
            .with_context(|| path.to_string())?;
    }
    Ok((complete.to_string(), file))
}

/// Writes `value` as pretty JSON (with a final newline) to `path`, atomically.
pub fn write_json(path: &str, value: &impl Serialize) -> Result<()> {
    let text = serde_json::to_string_pretty(value).expect("manifests serialise") + "\n";
    write_atomically(path, text.as_bytes())
}

/// Prints `value` as pretty JSON on stdout.
#[cfg_attr(not(feature = "learn"), allow(dead_code))] // only the DQN commands use it
pub fn print_json(value: &impl Serialize) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("reports serialise")
    );
}

/// The manifest's field that holds the checksum (FNV-1a, 16 hex digits) of the model file it
/// describes: a manifest and a model that disagree are found, not trusted.
pub const MODEL_CHECKSUM: &str = "model_fnv1a";

/// Writes a model file and its manifest (`path`.json, which records the model's checksum) as a
/// pair that a reader always finds matching: both go to temporary files first, then the model is
/// renamed into place, then the manifest. A run killed between the two renames leaves the new
/// manifest as `path.json.partial`, which [`read_manifest`] puts in place; killed before them,
/// the previous pair stands. Test hook: `PUZZLELAB_FAULT=between-model-and-manifest:N` ends the
/// process between the two renames of the Nth pair a run writes, as a kill would.
pub fn write_model_and_manifest(path: &str, model: &[u8], manifest: &impl Serialize) -> Result<()> {
    static WRITTEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let mut manifest = serde_json::to_value(manifest).expect("manifests serialise");
    if let Some(fields) = manifest.as_object_mut() {
        fields.insert(MODEL_CHECKSUM.into(), fnv1a_hex(model).into());
    }
    let text = serde_json::to_string_pretty(&manifest).expect("manifests serialise") + "\n";
    let manifest_path = format!("{path}.json");
    let model_partial = format!("{path}.partial");
    let manifest_partial = format!("{manifest_path}.partial");
    std::fs::write(&model_partial, model)
        .with_context(|| format!("{model_partial}: cannot write"))?;
    std::fs::write(&manifest_partial, text)
        .with_context(|| format!("{manifest_partial}: cannot write"))?;
    std::fs::rename(&model_partial, path).with_context(|| format!("{path}: cannot write"))?;
    let written = WRITTEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
    let fault = std::env::var("PUZZLELAB_FAULT").unwrap_or_default();
    if fault == format!("between-model-and-manifest:{written}") {
        eprintln!("puzzlelab: stopped between {path} and its manifest ({fault})");
        std::process::exit(137);
    }
    std::fs::rename(&manifest_partial, &manifest_path)
        .with_context(|| format!("{manifest_path}: cannot write"))
}

/// Adds `report` to the manifest beside `model` (read before the evaluation ran, so that a
/// missing one fails first) under `evaluations.name`, and writes it back: what `--record NAME`
/// of the eval commands does.
#[cfg_attr(not(feature = "learn"), allow(dead_code))] // only the learners' eval commands use it
pub fn record_evaluation(
    model: &str,
    mut manifest: serde_json::Value,
    name: &str,
    report: &serde_json::Value,
) -> Result<()> {
    let path = format!("{model}.json");
    anyhow::ensure!(
        manifest.is_object(),
        "{path}: the manifest is not an object"
    );
    if !manifest["evaluations"].is_object() {
        manifest["evaluations"] = serde_json::json!({});
    }
    manifest["evaluations"][name] = report.clone();
    write_json(&path, &manifest)
}

/// The manifest `FILE.json` written beside a model or network `path`, which resuming needs,
/// checked against the model: when it records the model's checksum ([`MODEL_CHECKSUM`]; older
/// manifests do not) the model file must match it. A manifest whose write a killed run left
/// unfinished (`path.json.partial`, matching the model) is put in place first; any other
/// mismatch is refused, saying which file is newer and what to do.
pub fn read_manifest<T: DeserializeOwned>(path: &str) -> Result<T> {
    let manifest_path = format!("{path}.json");
    let partial = format!("{manifest_path}.partial");
    let read = |manifest_path: &str| -> Result<serde_json::Value> {
        let text = std::fs::read_to_string(manifest_path)
            .with_context(|| format!("{manifest_path}: cannot read (needed to resume)"))?;
        serde_json::from_str(&text).with_context(|| format!("{manifest_path}: not a manifest"))
    };
    let found = read(&manifest_path);
    // The checksum the model must have: the manifest's, or (no manifest yet, a pending one
    // beside it) none it can have.
    let expected = match &found {
        Ok(manifest) => manifest.get(MODEL_CHECKSUM).and_then(|v| v.as_str()),
        Err(_) if std::path::Path::new(&partial).exists() => Some(""),
        Err(_) => None,
    };
    if let Some(expected) = expected {
        let model = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
        let actual = fnv1a_hex(&model);
        if expected != actual {
            let pending = (read(&partial).ok())
                .filter(|p| p.get(MODEL_CHECKSUM).and_then(|v| v.as_str()) == Some(&actual));
            if let Some(pending) = pending {
                std::fs::rename(&partial, &manifest_path)
                    .with_context(|| format!("{manifest_path}: cannot write"))?;
                eprintln!(
                    "puzzlelab: {manifest_path}: finished the write a stopped run left (the \
                     manifest of the model now in {path})"
                );
                return serde_json::from_value(pending)
                    .with_context(|| format!("{manifest_path}: not a manifest"));
            }
            if found.is_ok() {
                anyhow::bail!(
                    "{path} does not match its manifest {manifest_path}: the manifest records a \
                     model with checksum {expected}, the file's is {actual} ({}). Resume from a \
                     model and a manifest written together (a run's last checkpoint, or copies \
                     of both), or train again without --resume",
                    newer(path, &manifest_path)
                );
            }
        }
    }
    serde_json::from_value(found?).with_context(|| format!("{manifest_path}: not a manifest"))
}

/// Which of two files was written last, in words.
fn newer(a: &str, b: &str) -> String {
    let modified = |p: &str| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match (modified(a), modified(b)) {
        (Some(ta), Some(tb)) if ta > tb => format!("{a} was written after {b}"),
        (Some(ta), Some(tb)) if tb > ta => format!("{b} was written after {a}"),
        _ => "they were written at the same time".into(),
    }
}

/// A short description of this machine: OS, architecture, CPU model and core count.
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!(
        "{} {}, {cpu}, {cores} cores",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// `debug` or `release`: timings in a manifest mean little without it.
pub fn build() -> &'static str {
    if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    }
}

/// Rounds to `digits` decimals, for readable JSON.
pub fn round(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

/// Now in UTC as `YYYY-MM-DDTHH:MM:SSZ` (civil-from-days, Howard Hinnant's algorithm).
pub fn utc_now() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, time) = ((seconds / 86_400) as i64, seconds % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        time / 3600,
        time / 60 % 60,
        time % 60
    )
}
