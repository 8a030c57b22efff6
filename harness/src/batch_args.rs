//! The command line of `penumbra batch` (its own file: the batch's options, from the local run
//! to a SLURM cluster, are most of a page).

use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct BatchArgs {
    #[command(subcommand)]
    pub command: Option<BatchCommand>,
    /// The batch manifest (TOML): `name`, `out`, `[defaults]`, `[configs]` and `[[subject]]` entries.
    #[arg(required = true, value_name = "MANIFEST.toml")]
    pub manifest: Option<PathBuf>,
    /// Run N jobs at a time (default: the number of CPUs); as many `project` subjects are
    /// prepared at a time before the jobs start.
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Write results into DIR (default: the manifest's `out`, relative to the manifest, else
    /// results/<name> under the current directory).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Run only shard I of N (1-based; every N-th job), for cluster job arrays; join the
    /// shards' results with `penumbra batch merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Run at most K jobs this time; the rest stay for a later run.
    #[arg(long, value_name = "K")]
    pub limit: Option<usize>,
    /// Run every job again, even those with a finished record.
    #[arg(long)]
    pub force: bool,
    /// Submit the batch to SLURM instead of running it here: one job array with a task per
    /// unfinished job (each runs `penumbra batch --shard`, with `--time` and `--mem` from the
    /// manifest's `max_time` and `max_memory_mb`), then a collection job (after the array,
    /// whatever its tasks' ends) that writes the tables and the report. Project subjects are
    /// prepared first by a job of their own (or here, with --prepare-locally). Prints the job
    /// ids; submitting again resubmits only the jobs without a record. Options after `--` go
    /// to every `sbatch` (`-- --partition=short --account=lab`). The results directory, the
    /// manifest and this binary must be on a file system the nodes share.
    #[arg(long, conflicts_with_all = ["shard", "limit", "status", "prepare_only", "collect"])]
    pub slurm: bool,
    /// With --slurm: prepare the project subjects on this host before submitting, not in a job.
    #[arg(long, requires = "slurm")]
    pub prepare_locally: bool,
    /// Show each job's state and stop: its record's outcome where it finished, else what SLURM
    /// says of its task (`squeue`, and `sacct` where accounting is on) for a `--slurm` batch.
    /// Runs nothing and prepares nothing.
    #[arg(long, conflicts_with_all = ["shard", "limit", "prepare_only", "collect", "force"])]
    pub status: bool,
    /// Prepare the project subjects into OUT/prepared/ and stop (what --slurm's preparation job runs).
    #[arg(long, conflicts_with_all = ["shard", "limit", "collect", "prepared"])]
    pub prepare_only: bool,
    /// Take the project subjects' preparations from OUT/prepared/ as an earlier --prepare-only
    /// left them, running no preparation; a subject without one is `not-prepared` (what
    /// --slurm's array tasks and collection job run).
    #[arg(long)]
    pub prepared: bool,
    /// Run no job: write the tables, plots and report of the jobs that finished (what --slurm's
    /// collection job runs).
    #[arg(long, conflicts_with_all = ["shard", "limit"])]
    pub collect: bool,
    /// Options for `sbatch` (after `--`), with --slurm.
    #[arg(last = true, value_name = "SBATCH-OPTION", requires = "slurm")]
    pub sbatch: Vec<String>,
}

#[derive(Subcommand, Debug)]
pub enum BatchCommand {
    /// Join the job records of several result directories (shards) into one results set.
    Merge(BatchMergeArgs),
}

#[derive(Args, Debug)]
pub struct BatchMergeArgs {
    /// Result directories (each with a `jobs/` subdirectory) of the same batch.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Write the merged results into DIR (default: results/<name>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}
