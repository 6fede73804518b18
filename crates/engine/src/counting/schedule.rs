//! How [`count_all`] makes a search's counts: which jobs walk one sparse scope together over the packed values,
//! which long walks are halved, and how the work is shared between this thread and a second one, each taking the
//! largest task left.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::OnceLock;

use roaring::RoaringBitmap;

use super::{is_sparse, is_whole_space, walk, walk_is_cheaper, CountJob};
use crate::field_index::FieldIndex;
use crate::index::SpaceIndex;
use crate::packed::Packed;
use crate::tuning::{EnginePath, Tuned};

/// The cores this process may use, asked once (the answer reads cgroup files on Linux).
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Work for one thread of [`count_all`]: a job alone, a job's walk over the scope's documents in a range, or the
/// fields of jobs walking the same scope together in the packed values, over the scope's documents in a range
/// (a large walk is split in two halves, which the two threads take).
enum Task<'a> {
    One(usize),
    Part(usize, Range<u32>),
    Together(&'a Packed, Range<u32>),
}

/// The document of `scope` at which its second half begins.
fn middle(scope: &RoaringBitmap) -> u32 {
    scope.select((scope.len() / 2) as u32).unwrap_or(u32::MAX)
}

/// The counts of every job, in order. With `index`, jobs that would walk the same sparse scope (the result,
/// for every group without a selection of its own) walk it once together over its packed values, each thread
/// half of its documents when there is enough work to share. Other work is shared between this thread and a
/// second one, each taking the largest task left whenever it is free, when `tuned` allows two threads and the
/// work is above its shared work.
pub(crate) fn count_all(jobs: &[CountJob], index: Option<&SpaceIndex>, tuned: Tuned) -> Vec<Vec<u64>> {
    let shared_work = tuned.tuning.shared_work;
    let two_threads = tuned.tuning.counting_threads >= 2 && cores() > 1;
    let together: Vec<usize> = index.map_or_else(Vec::new, |index| walking_together(jobs, index));
    let packed = index.filter(|_| together.len() > 1).and_then(SpaceIndex::packed);
    // The fields walked together, each once (a walk counts all of a field's values, whatever a group shows of
    // them), by their number in the index; and per job walked together, its field's place among them.
    let mut fields: Vec<(usize, &FieldIndex)> = Vec::new();
    let mut shares: Vec<(usize, usize)> = Vec::new();
    let mut tasks: Vec<(Task, f64)> = Vec::new();
    if let (Some(packed), Some(index)) = (packed, index) {
        let number = |job: &CountJob| index.fields.iter().position(|f| std::ptr::eq(f, job.field));
        fields = together.iter().filter_map(|&i| Some((number(&jobs[i])?, jobs[i].field))).collect();
        fields.sort_by_key(|f| f.0);
        fields.dedup_by_key(|f| f.0);
        shares = together
            .iter()
            .filter_map(|&i| Some((i, fields.iter().position(|f| Some(f.0) == number(&jobs[i]))?)))
            .collect();
        let scope: &RoaringBitmap = &jobs[together[0]].scope;
        let cost = scope.len() as f64 * packed.per_document();
        if shares.is_empty() {
            // No field found in the index: every job counts alone.
        } else if cost >= shared_work && two_threads {
            tuned.taken.note(EnginePath::CountingTogetherHalved);
            let middle = middle(scope);
            tasks.push((Task::Together(packed, 0..middle), cost / 2.0));
            tasks.push((Task::Together(packed, middle..u32::MAX), cost / 2.0));
        } else {
            tasks.push((Task::Together(packed, 0..u32::MAX), cost));
        }
    }
    let walked: Vec<usize> = shares.iter().map(|s| s.0).collect();
    for (i, job) in jobs.iter().enumerate().filter(|(i, _)| !walked.contains(i)) {
        let cost = job.cost();
        // A walk long enough to share is walked in two halves: one such walk can be most of a search's counting
        // (a selected concept's group over the documents of a selected language).
        if cost >= shared_work && two_threads && job.walks() {
            tuned.taken.note(EnginePath::CountingWalkHalved);
            let middle = middle(&job.scope);
            tasks.push((Task::Part(i, 0..middle), cost / 2.0));
            tasks.push((Task::Part(i, middle..u32::MAX), cost / 2.0));
        } else {
            tasks.push((Task::One(i), cost));
        }
    }
    let run = |task: &Task| -> Vec<(usize, Vec<u64>)> {
        match task {
            Task::Together(packed, range) => {
                let counts = packed.count(&jobs[shares[0].0].scope, range.clone(), &fields);
                shares.iter().map(|&(i, at)| (i, counts[at].clone())).collect()
            }
            Task::One(i) => vec![(*i, jobs[*i].count())],
            Task::Part(i, range) => vec![(*i, walk(jobs[*i].field, &jobs[*i].scope, range.clone()))],
        }
    };
    let mut out = vec![Vec::new(); jobs.len()];
    // The halves of a walk add up.
    let mut put = |done: Vec<(usize, Vec<u64>)>| {
        for (i, counts) in done {
            if out[i].is_empty() {
                out[i] = counts;
            } else {
                out[i].iter_mut().zip(counts).for_each(|(a, b)| *a += b);
            }
        }
    };
    let total: f64 = tasks.iter().map(|t| t.1).sum();
    if tasks.iter().any(|t| matches!(t.0, Task::Together(..))) {
        tuned.taken.note(EnginePath::CountingTogether);
    }
    if tasks.len() < 2 || total < shared_work || !two_threads {
        tasks.iter().for_each(|t| put(run(&t.0)));
        return out;
    }
    // The largest first: each thread takes the next task once it is free, so that estimates far off (a walk of
    // scattered documents costs more per step than an intersection) still leave the two about equally busy.
    tasks.sort_by(|a, b| b.1.total_cmp(&a.1));
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        while let Some((task, _)) = tasks.get(next.fetch_add(1, AtomicOrdering::Relaxed)) {
            done.push(run(task));
        }
        done
    };
    std::thread::scope(|s| {
        // Without a second thread (none can be started), this one takes every task.
        let helper = std::thread::Builder::new().spawn_scoped(s, work).ok();
        if helper.is_some() {
            tuned.taken.note(EnginePath::CountingSecondThread);
        }
        work().into_iter().for_each(&mut put);
        if let Some(helper) = helper {
            // A task that panicked there panics the search, as it would have here.
            helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)).into_iter().for_each(&mut put);
        }
    });
    out
}

/// The jobs that walk the same sparse scope of the result (borrowed, not one of their own), for which walking
/// is cheaper than intersecting, cut or not (a cut's intersections with a sparse scope are slow, and it mostly
/// gives up and walks): those of the first such scope. Over denser scopes each field's own arrays are read
/// about as fast as a cache line of every field's values per document (measured slower at 1M: 85,000
/// documents, 20 ms together against 12 alone).
pub(crate) fn walking_together(jobs: &[CountJob], index: &SpaceIndex) -> Vec<usize> {
    let walks = |job: &CountJob| {
        let wanted = job.only.as_ref().map_or(job.field.values.len(), Vec::len);
        is_sparse(&job.scope)
            && matches!(job.scope, Cow::Borrowed(_))
            && !is_whole_space(job.field, &job.scope)
            && walk_is_cheaper(job.field, &job.scope, wanted)
            && index.fields.iter().any(|f| std::ptr::eq(f, job.field))
    };
    let Some(first) = jobs.iter().position(walks) else { return Vec::new() };
    let scope: &RoaringBitmap = &jobs[first].scope;
    (first..jobs.len()).filter(|&i| walks(&jobs[i]) && std::ptr::eq::<RoaringBitmap>(&*jobs[i].scope, scope)).collect()
}
