// Types of the tct JSON documents (schema "tct/1"; the JSON Schema is in ../schema/) and
// of the wrapper. Durations are nanoseconds (*_ns), sizes bytes (*_bytes). Objects keep an
// index signature where tct may add fields within schema version 1.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface DocError {
  kind: string;
  message: string;
  hint: string;
  stage?: string;
  exit_code?: number | null;
}

export interface Warning {
  code: string;
  message: string;
  hint?: string;
  /** The configuration (bench row label) the warning concerns, when a run has several. */
  row?: string;
  /** How bad, in the one measure a code's warnings share (an outlier fraction, a recompile count, a half-width). */
  figure?: number;
}

export interface PythonInfo {
  version: string;
  executable: string;
  implementation: string;
  [key: string]: unknown;
}

export interface Environment {
  interpreter?: { path: string; chosen_by: string };
  python?: PythonInfo;
  torch?: { version: string; [key: string]: unknown } | null;
  agent_version?: string;
  [key: string]: unknown;
}

/** The envelope every command writes. */
export interface Document {
  schema: 'tct/1';
  command: 'probe' | 'bench' | 'explain' | 'diff' | 'expect' | 'audit' | 'run' | string;
  tct_version: string;
  created: string;
  exit_code: number | null;
  error: DocError | null;
  warnings: Warning[];
  environment: Environment;
}

// ----------------------------------------------------------------------------- probe

export interface ProbeReason {
  severity: 'blocker' | 'caveat' | 'info';
  code: string;
  message: string;
  fix: string;
}

export interface SmokeResult {
  device: string;
  backend: string;
  ok: boolean;
  match: boolean;
  compile_ns?: number | null;
  /** Against eager, with compile_ns; null when not finite. */
  max_abs_diff?: number | null;
  max_abs_expected?: number | null;
  shape_equal?: boolean;
  error?: string | null;
  [key: string]: unknown;
}

/** The torch releases tct supports (min) and its tests run on (tested), and where this torch stands. */
export interface ProbeTorchSupport {
  min: string;
  tested: string[];
  status: 'tested' | 'in_range' | 'older' | 'newer';
}

export interface ProbeSection {
  python: PythonInfo;
  torch: { version: string } | null;
  /** The torch releases tct supports and tests; absent without torch. */
  supported_torch?: ProbeTorchSupport;
  environment_variables: Record<string, string>;
  facts?: {
    torch: { version: string; build: string; compile_available: boolean; num_threads: number; [key: string]: unknown };
    backends: { all: string[]; default: string[] };
    devices: { cpu: Record<string, Json>; cuda: Array<Record<string, Json>>; cuda_available: boolean; mps_available: boolean };
    triton: { installed: boolean; version: string | null; error: string | null };
    cpp_compiler: { path: string | null; version?: string | null; openmp?: boolean; [key: string]: unknown };
    [key: string]: unknown;
  };
  smoke: SmokeResult[];
  verdict: 'usable' | 'usable_with_caveats' | 'not_usable';
  reasons: ProbeReason[];
}

export interface ProbeDocument extends Document { command: 'probe'; probe: ProbeSection }

// ----------------------------------------------------------------------------- bench

/** Summary statistics of latency samples, in ns. */
export interface Summary {
  n: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  median: number | null;
  p05: number | null;
  p25: number | null;
  p75: number | null;
  p95: number | null;
  mad: number | null;
  robust_cv: number | null;
  [key: string]: unknown;
}

export interface Interval {
  estimate: number | null;
  low: number | null;
  high: number | null;
  confidence?: number;
}

/** Decided once by tct where the interval is made; every report prints this field. */
export type SpeedupVerdict = "faster" | "slower" | "no_clear_difference" | "inconclusive" | "not_measured";

/** A bench row's speedup: the interval and its verdict (absent in documents of tct before 0.4). */
export interface Speedup extends Interval {
  verdict?: SpeedupVerdict;
  inconclusive?: boolean;
  processes?: number;
  between_segment_sd?: number | null;
  look_confidence?: number | null;
  looks?: number | null;
  method?: string | null;
  per_process?: ProcessSpeedup[];
  segments?: number | null;
  within_sd?: number | null;
}

/** A median per call with its 95% interval (ns). */
export interface MedianNs {
  median_ns: number | null;
  low_ns: number | null;
  high_ns: number | null;
}

/** Where a compiled call's time goes (bench rows; absent with --no-breakdown). */
export interface CallBreakdown {
  calls: number;
  bare: MedianNs;
  profiled: MedianNs;
  sampling_cost_ns?: number | null;
  parts: Partial<Record<"lookup" | "wrappers" | "graphs" | "eager" | "dynamo" | "outside", MedianNs>>;
  graph_events?: boolean;
  overhead_share?: number | null;
  material?: boolean;
  frames: {
    name: string;
    file?: string;
    line?: number;
    entry_frame?: boolean;
    hit_position?: number | null;
    lookup_guards_ns?: number | null;
    entries: {
      compile_id?: string;
      guard_count?: number | null;
      guard_latency_us?: number | null;
      passes?: boolean | null;
      check_ns?: number | null;
    }[];
  }[];
  fixes: {
    fix: string;
    code: string;
    gives_up: string;
    not_tried?: string;
    speedup?: { estimate: number | null; low: number | null; high: number | null };
    verdict?: "faster" | "slower" | "no_clear_difference" | "inconclusive" | "not_measured";
    saves?: MedianNs;
    pairs?: number;
  }[];
}

export interface BenchConfig {
  allocator?: AllocatorState;
  allocator_compare?: boolean | null;
  atol?: number | null;
  backends?: string[];
  breakdown?: boolean;
  budget_s?: number | null;
  check?: boolean | null;
  compile_repeats?: number | null;
  compile_time?: boolean | null;
  device?: string | null;
  dtype?: string | null;
  dynamic?: string[];
  eager_via?: 'original' | 'stance';
  eager_warmup_calls?: number | null;
  fullgraph?: boolean[];
  looks?: number | null;
  memory?: boolean | null;
  min_blocks?: number | null;
  modes?: string[];
  notes?: string[];
  params?: { [key: string]: Json };
  precision?: number | null;
  raw?: boolean | null;
  rtol?: number | null;
  train?: boolean | null;
  warmup_calls?: number | null;
}

export interface BenchClock {
  declared_resolution_ns?: number | null;
  implementation?: string | null;
  resolution_ns?: number | null;
}

export interface BenchEager {
  first_call_ns?: number | null;
  memory?: BenchMemoryReading | null;
  steady_ns?: number | null;
  warmup_ns?: (number | null)[];
}

export interface BenchMemoryReading {
  baseline_bytes?: number | null;
  increase_bytes?: number | null;
  kind?: string | null;
  method?: string | null;
  peak_bytes?: number | null;
}

export interface DetectedAllocator {
  kind?: 'glibc' | 'tcmalloc' | 'jemalloc' | 'unknown';
  ld_preload?: string | null;
  library?: string | null;
  settled?: boolean | null;
}

export interface AllocatorComparePlan {
  budget_s?: number | null;
  enabled?: boolean | null;
  row?: string | null;
  skipped_reason?: string | null;
}

export interface AllocatorSpeedup {
  confidence?: number | null;
  estimate?: number | null;
  high?: number | null;
  low?: number | null;
}

export interface ProcessSpeedup {
  blocks?: number | null;
  segment_speedups?: (number | null)[];
  speedup?: number | null;
}

export interface BenchLatency {
  compiled?: Summary;
  eager?: Summary;
}

export interface BenchSteadyState {
  estimate_ns?: number | null;
  found?: boolean | null;
  level_ns?: number | null;
  reason?: string | null;
  start_index?: number | null;
}

export interface BenchCompile {
  breakdown?: Record<string, number | null>;
  cold?: CompileSpread | null;
  cold_ns?: number | null;
  cold_source?: string | null;
  error?: DocError;
  first_call_ns?: number | null;
  repeats?: number | null;
  single_measurement?: boolean | null;
  warm?: CompileSpread | null;
  warm_breakdown?: Record<string, number | null>;
  warm_cache?: CacheCounters;
  warm_cache_hit?: boolean | null;
  warm_ns?: number | null;
}

export interface CompileSpread {
  max_ns?: number | null;
  median_ns?: number | null;
  min_ns?: number | null;
  n?: number | null;
  samples_ns?: (number | null)[];
}

export interface CacheCounters {
  autograd_cache_hit?: number | null;
  autograd_cache_miss?: number | null;
  fxgraph_cache_hit?: number | null;
  fxgraph_cache_miss?: number | null;
  hit?: boolean | null;
}

export interface BreakEven {
  cold?: CallRange | null;
  verdict?: 'breaks_even' | 'no_reliable_gain' | 'inconclusive';
  warm?: CallRange | null;
}

export interface CallRange {
  estimate?: number | null;
  high?: number | null;
  low?: number | null;
}

export interface BenchMemory {
  compile_peak_increase_bytes?: number | null;
  compiled_increase_bytes?: number | null;
  compiled_method?: string | null;
  compiled_peak_bytes?: number | null;
  compiler_kept_bytes?: number | null;
  eager_increase_bytes?: number | null;
  eager_method?: string | null;
  eager_peak_bytes?: number | null;
  kind?: string | null;
}

export interface Correctness {
  agent_cost_ns?: CheckCosts;
  basis?: string | null;
  check_s?: number | null;
  checked?: boolean;
  differing_parameters?: string[];
  eager_differing?: Mismatch[];
  eager_max_self_diff?: number | null;
  eager_used_rng?: boolean | null;
  fallback_random?: boolean | null;
  leaf_results?: LeafCheck[];
  leaves?: number | null;
  match?: boolean | null;
  mismatches?: Mismatch[];
  nondeterministic?: boolean | null;
  not_compared?: NotCompared[];
  reference?: ReferenceRun;
  seeded?: boolean | null;
}

export interface Mismatch {
  path?: string | null;
  reason?: string | null;
}

export interface NotCompared {
  path?: string | null;
  type?: string | null;
}

export interface LeafCheck {
  actual_at_worst?: number | [number | null, number | null] | null;
  atol?: number | null;
  basis?: string | null;
  dtype?: string | null;
  expected_at_worst?: number | [number | null, number | null] | null;
  fraction_out_of_tolerance?: number | null;
  match?: boolean | null;
  max_abs_diff?: number | null;
  max_rel_diff?: number | null;
  numel?: number | null;
  out_of_tolerance?: number | null;
  path?: string | null;
  reference?: LeafReference;
  rtol?: number | null;
  worst_index?: number[] | null;
}

export interface LeafReference {
  actual_at_worst?: number | null;
  compiled_max_error?: number | null;
  compiled_rms_error?: number | null;
  eager_max_error?: number | null;
  eager_rms_error?: number | null;
  expected_at_worst?: number | null;
  multiplier?: number | null;
  out_of_tolerance?: number | null;
  reference_at_worst?: number | null;
  worst_index?: number[] | null;
}

export interface ReferenceRun {
  computed?: boolean | null;
  dtype?: string | null;
  reason?: string | null;
}

export interface CheckCosts {
  compare_ns?: number | null;
  compiled_ns?: number | null;
  eager_ns?: number | null;
  reference_ns?: number | null;
}

export interface RowFlag {
  applies_to?: string | null;
  code?: string | null;
  text?: string | null;
}

export interface GraphBreakReason {
  count?: number | null;
  reason?: string | null;
}

export interface OutlierCount {
  count?: number | null;
  fraction?: number | null;
  high?: number | null;
  low?: number | null;
  relative_fallback?: boolean | null;
}

export interface MachineLoad {
  cpus?: number | null;
  involuntary_switches_per_s?: number | null;
  loadavg_1m_max?: number | null;
}

export interface RawSamples {
  calls_per_sample?: { eager: number; compiled: number };
  compiled?: (number | null)[];
  eager?: (number | null)[];
}

export interface AotiFacts {
  export_ns?: number | null;
  load_ns?: number | null;
  package_bytes?: number | null;
  package_compile_ns?: number | null;
  package_ns?: number | null;
  package_path?: string | null;
  runner_note?: string | null;
  timed_from?: 'cpp' | 'python' | null;
}

export interface BenchRow {
  backend: string;
  mode: string;
  dynamic: string | boolean | null;
  fullgraph: boolean;
  status: string;
  error: DocError | null;
  speedup?: Speedup | null;
  latency?: BenchLatency | null;
  warmup_curve_ns?: number[];
  steady_state?: BenchSteadyState | null;
  compile?: BenchCompile | null;
  break_even_calls?: number | null;
  breakdown?: CallBreakdown;
  correctness?: Correctness | null;
  memory?: BenchMemory | null;
  recompiles_during_measurement?: number | null;
  graph_breaks?: number | null;
  samples?: RawSamples;
  /** The aoti row only (`--backend aoti`): the package, its load time and who timed its calls. */
  aoti?: AotiFacts;
  block_warmup_ns?: { eager: number | null; compiled: number | null };
  blocks?: number;
  blocks_dropped_for_recompile?: number;
  break_even?: BreakEven | null;
  break_even_calls_warm?: number | null;
  calls_per_sample?: { eager: number; compiled: number };
  clock_resolution_ns?: number | null;
  cudagraph_skips?: number | null;
  flags?: RowFlag[];
  frames_compiled_in_warmup?: number | null;
  graph_break_reasons?: GraphBreakReason[];
  graph_breaks_during_measurement?: number | null;
  graphs?: number | null;
  harness_floor_ns?: number | null;
  label?: string;
  load?: MachineLoad;
  outliers?: { eager: OutlierCount; compiled: OutlierCount };
  samples_per_block?: number | null;
  sampling_s?: number | null;
  skip_reasons?: string[];
  stop_reason?: string | null;
  [key: string]: unknown;
}

export type AllocatorState = 'system' | 'settled' | 'tcmalloc' | 'jemalloc';

/** One malloc state of the allocator comparison (bench.allocator.states). */
export interface AllocatorStateFigures {
  state: AllocatorState;
  status: 'headline' | 'measured' | 'skipped' | 'failed';
  library?: string | null;
  reason?: string | null;
  detected?: string | null;
  eager_ns?: number | null;
  compiled_ns?: number | null;
  speedup?: AllocatorSpeedup | null;
  blocks?: number;
  description?: string | null;
  sampling_s?: number | null;
  [key: string]: unknown;
}

/** bench.allocator: the state the headline is measured in and the other states' figures (CPU). */
export interface AllocatorSection {
  state: AllocatorState;
  library: string | null;
  settled: boolean;
  detected: DetectedAllocator;
  compare: AllocatorComparePlan;
  states: AllocatorStateFigures[];
  differs: boolean | null;
  best_state: AllocatorState | null;
  description?: string | null;
  ld_preload?: string | null;
  processes_disagree?: boolean | null;
  [key: string]: unknown;
}

export interface BenchSection {
  target: Json;
  config: BenchConfig;
  eager: BenchEager | null;
  rows: BenchRow[];
  /** Absent in documents from a tct without --allocator. */
  allocator?: AllocatorSection;
  clock?: BenchClock | null;
  device_type?: string | null;
  num_threads?: number | null;
  phase?: string;
  set_stance_available?: boolean | null;
  warnings?: Warning[];
  [key: string]: unknown;
}

export interface BenchDocument extends Document { command: 'bench'; bench: BenchSection }

// ----------------------------------------------------------------------------- explain

export interface Frame {
  file: string;
  line: number | null;
  function: string;
  source?: string | null;
}
/** What a printed fix costs and when it is no fix (tct's fix table, each with its source); untried:
 *  its cost on your inputs is unknown and could be large, and tct has not tried it. The `run`
 *  document carries the same object as `fix_terms` beside each break's, fallback's and recompile's fix. */
export interface FixTerms {
  id: string;
  cost: string;
  not_when: string;
  source: string;
  untried: boolean;
  /** While untried, where tct can measure it on your job: the command that does ("tct run --try-fixes", "tct job --shape-fixes"). */
  measured_by?: string;
}
export interface Hint { text: string; fix?: string | null; url?: string | null; terms?: FixTerms }

/** torch's graph-break registry entry (id GB0000, type, explanation, hints, url). */
export interface GraphBreakRegistry {
  id: string;
  type: string;
  explanation: string;
  hints: string[];
  url: string;
}

export interface GraphBreak {
  reason: string;
  kind: string;
  /** torch's graph-break registry entry, when known. */
  registry: GraphBreakRegistry | null;
  frames: Frame[];
  hint: Hint | null;
  [key: string]: unknown;
}

export interface BreakGroup {
  kind: string;
  file: string | null;
  line: number | null;
  function: string | null;
  source?: string | null;
  count: number;
  reason: string;
  reason_full?: string;
  registry_id?: string;
  hint: Hint | null;
  /** The outer user frames of the first occurrence. */
  callers?: Frame[];
  /** Every distinct immediate caller of the place (a helper called from three lines has three). */
  call_sites?: Frame[];
  /** Which view saw it: torch._dynamo.explain, the logged compiled run, or both. */
  views?: Array<'explain' | 'logged'>;
  [key: string]: unknown;
}

/** A frame dynamo gave up on in the compiled run (it ran eagerly); not a graph break. */
export interface SkippedFrame {
  /** The code's name: "forward". */
  function: string;
  /** Its qualified name: "MoE.forward" (what the reports name it by). */
  qualname?: string;
  /** "MoE.forward at model.py:12" */
  title?: string;
  file: string;
  line: number;
  /** The break that made dynamo give up: its kind, place, registry id and fix. */
  kind: string;
  break_file?: string;
  break_line?: number;
  registry_id?: string;
  reason: string;
  skip_reason: string;
  skip_reason_full?: string;
  hint?: Hint;
  [key: string]: unknown;
}

/** A part of the user's code that runs eagerly on every call although it is under torch.compile
 *  (common.schema.json#/$defs/eager_part), from the compiled run's TORCH_TRACE records. */
export interface EagerPart {
  /** rest_of_frame: a break Dynamo cannot resume from (the frame compiles up to it; torch counts
   *  no graph break); skipped_frame: the whole frame; compiler_disable: a torch.compiler.disable'd
   *  call; recompile_limit: a frame over its recompile limit. */
  cause: 'rest_of_frame' | 'skipped_frame' | 'compiler_disable' | 'recompile_limit';
  function: string;
  file: string;
  frame_line?: number;
  /** The first line that runs eagerly. */
  from_line: number;
  kind?: string;
  reason?: string;
  compile_id?: string;
  records?: number;
  /** "forward (kws.py) from line 37 to its end runs eagerly on every call" */
  says: string;
  /** The fix of the break that caused it, where no other line carries it (a rest of frame, a skipped frame). */
  hint?: Hint;
}

/** torch._dynamo.explain's own figures; graph_break_count null when it gave up on the frame (its -1). */
export interface ExplainView {
  graph_count: number;
  graph_break_count: number | null;
  frame_skipped: boolean;
  op_count: number | null;
}

export interface ExplainOpCount {
  name: string;
  count: number;
}

export interface ExplainGraphOps {
  op_count: number;
  ops: ExplainOpCount[];
}

export interface ExplainKindCount {
  kind: string;
  label?: string;
  count: number;
}

/** A break record of the compiled run's log (skips included), as torch logged it. */
export interface ExplainLoggedBreak {
  file: string;
  line: number;
  kind: string;
  reason: string;
  reason_full: string;
  frame_skipped: boolean;
  skip_reason: string;
  duplicate: boolean;
  user_code: boolean;
  frames: Frame[];
}

export interface ExplainRecompile {
  function: string;
  file: string;
  line: number;
  kind: string;
  guard_failures: string[];
  hint: Hint;
}

/** The share of an eager call the captured graphs cover, timed in the logged run: interleaved pairs
 *  of an eager call and a compiled one; covered is the fastest time inside graphs over the fastest
 *  eager call. */
export interface ExplainGraphShare {
  pairs: number;
  covered: number | null;
  eager_fastest_ns: number | null;
  in_graph_fastest_ns: number | null;
  /** Of an eager call: what Dynamo adds around the graphs, 0 at least; written when timed. */
  overhead?: number;
}

/** The logged compiled run (its graph_breaks and recompiles logs). */
export interface ExplainLoggedRun {
  backend: string;
  calls: number;
  error: string | Record<string, Json> | null;
  /** The log's break records; the counted breaks are the section's groups. */
  graph_breaks: ExplainLoggedBreak[];
  recompiles: ExplainRecompile[];
  warnings: string[];
  frames_total: number | null;
  frames_ok: number | null;
  frames_skipped: number | null;
  /** Written when timed (absent in older documents). */
  graph_share?: ExplainGraphShare | null;
}

export interface ExplainDisagreement {
  kind: string;
  message: string;
}

/** --max-graph-breaks N: passed when the compiled run broke at most N times and skipped no frame. */
export interface ExplainGate {
  max_graph_breaks: number;
  graph_break_count: number;
  frames_skipped: number;
  passed: boolean;
}

export interface ExplainSection {
  target: Json;
  torch_version?: string;
  /** explain's output form: "object" (torch >= 2.1) or "tuple" (2.0). */
  form?: string;
  graph_count: number;
  graph_break_count: number;
  op_count?: number;
  /** explain's own figures, beside the compiled run's (absent in older documents). */
  explain_view?: ExplainView;
  ops_per_graph?: ExplainGraphOps[];
  guard_count?: number | null;
  capturable?: boolean;
  verdict?: 'capturable' | 'graph_breaks' | 'frame_skipped';
  counts_from?: 'compiled_run' | 'explain';
  /** One per frame; graph_break_count does not count the breaks that caused them. */
  skipped_frames?: SkippedFrame[];
  /** What runs eagerly on every call (the rest of a frame, skipped frames, disabled calls, recompile limits). */
  eager_parts?: EagerPart[];
  breaks: GraphBreak[];
  /** Their counts add up to graph_break_count. */
  groups: BreakGroup[];
  kinds?: ExplainKindCount[];
  /** The logged compiled run (its graph_breaks and recompiles logs); null with --no-logged. */
  logged?: ExplainLoggedRun | null;
  disagreements?: ExplainDisagreement[];
  /** --max-graph-breaks N; null without it. */
  gate?: ExplainGate | null;
  [key: string]: unknown;
}

export interface ExplainDocument extends Document { command: 'explain'; explain: ExplainSection }

export interface DiffSection {
  before: { file: string; target?: Json };
  after: { file: string; target?: Json };
  fixed: BreakGroup[];
  added: BreakGroup[];
  unchanged: Array<{ kind: string; matched_by: string; before: BreakGroup; after: BreakGroup; line_shift?: number; count_delta?: number }>;
  break_count?: { before: number; after: number; delta: number };
  graph_count?: { before: number; after: number; delta: number };
  frames_skipped?: { before: number; after: number; delta: number };
  /** Skipped frames that compile now / are skipped now, by title ("MoE.forward at model.py:12"). */
  skipped_fixed?: string[];
  skipped_added?: string[];
  [key: string]: unknown;
}
export interface DiffDocument extends Document { command: 'diff'; diff: DiffSection }

// ----------------------------------------------------------------------------- expect

export interface ExpectReason {
  meaning?: string;
  metric?: string;
  threshold?: Json;
  value?: number | null;
}

export interface ExpectRoofline {
  achieved_flops?: number | null;
  attainable_flops?: number | null;
  fraction?: number | null;
  roofline_time_ns?: number | null;
}

export interface ExpectTimeShares {
  conv?: number | null;
  fixed_cost?: number | null;
  kept_arithmetic?: number | null;
  library?: number | null;
  memory_traffic?: number | null;
  other_compute?: number | null;
  outside_ops?: number | null;
}

export interface ExpectProfile {
  conv_fraction?: number | null;
  device_busy_fraction?: number | null;
  estimator?: 'lower_envelope' | 'median';
  events_truncated?: boolean;
  fused_kernel_fraction?: number | null;
  in_op_fraction?: number | null;
  in_op_fraction_p10?: number | null;
  in_op_fraction_p90?: number | null;
  in_op_per_call_ns?: number | null;
  kept_arithmetic_fraction?: number | null;
  kernel_launches?: number | null;
  library_fraction?: number | null;
  library_ops_per_call?: number;
  op_time_distribution?: { n: number; min_ns: number | null; p50_ns: number | null; p90_ns: number | null; p99_ns: number | null; max_ns: number | null; mean_ns: number | null };
  ops_per_call?: number | null;
  overhead_fraction?: number | null;
  overhead_fraction_halves?: [number, number] | null;
  pointwise_ops_per_call?: number;
  profiled_wall_per_call_ns?: number | null;
  reduction_ops_per_call?: number;
  top_ops?: ExpectTopOp[];
  wall_per_call_ns?: number | null;
}

export interface ExpectTopOp {
  class?: string;
  count_per_call?: number | null;
  name?: string;
  ns_per_call?: number | null;
  self_ns_per_call?: number | null;
}

export interface ExpectCompiledRun {
  compiled_share?: { covered: number | null; pairs: number; dynamo_overhead?: number } | null;
  eager_parts?: EagerPart[];
  graph_break_count?: number;
  graph_count?: number;
  if_captured?: ExpectRange;
  nothing_compiled?: boolean;
  skipped_frames?: SkippedFrame[];
}

export interface ExpectSweep {
  class_changes?: ExpectClassChange[];
  param?: string;
  points?: ExpectSweepPoint[];
  values?: Json[];
}

export interface ExpectClassChange {
  from_class?: 'overhead_bound' | 'memory_bound' | 'compute_bound' | 'unknown';
  from_value?: Json;
  to_class?: 'overhead_bound' | 'memory_bound' | 'compute_bound' | 'unknown';
  to_value?: Json;
}

export interface ExpectSweepPoint {
  arithmetic_intensity?: number | null;
  borderline_with?: 'overhead_bound' | 'memory_bound' | 'compute_bound' | 'unknown';
  class?: 'overhead_bound' | 'memory_bound' | 'compute_bound' | 'unknown';
  decided_by?: ExpectReason[];
  error?: DocError | null;
  inputs?: Json[];
  predicted_speedup?: ExpectRange;
  profile?: { wall_per_call_ns: number | null; overhead_fraction: number | null; ops_per_call: number | null };
  speedup?: ExpectMeasured | null;
  validation?: ExpectValidation | null;
  value?: Json;
}

export interface ExpectRange {
  high?: number | null;
  low?: number | null;
  point?: number | null;
}

export interface ExpectValidation {
  class?: string;
  compile_worth_it?: 'yes' | 'no' | 'unclear';
  direction_right?: boolean;
  measured?: ExpectMeasured;
  predicted?: ExpectRange;
  summary?: string;
  verdict?: 'inside' | 'above' | 'below';
}

export interface ExpectMeasured {
  estimate?: number | null;
  high?: number | null;
  low?: number | null;
}

export interface ExpectPrediction {
  assumes?: 'captured' | 'graph_breaks_stay' | 'nothing_compiled' | 'eager_part_stays';
  compiled_call_ns?: number | null;
  compiled_call_source?: 'profile' | 'ceilings';
  high?: number | null;
  interval?: ExpectIntervalModel;
  low?: number | null;
  op_floor_ns?: number | null;
  point?: number | null;
  shifts?: ExpectShift[] | null;
  terms?: ExpectTerm[];
}

export interface ExpectTerm {
  compiled_share?: number | null;
  keep?: number | null;
  share?: number | null;
  term?: string;
}

export interface ExpectShift {
  effect?: string;
  factor?: string;
  value?: number | null;
}

export interface ExpectIntervalModel {
  calibration?: { fitted_on: string; calibration_cases: number; validation_cases: number; validation_inside: number };
  generated_share?: number | null;
  log_bias?: number | null;
  log_sigma?: number | null;
  z?: number | null;
}

export interface ExpectSuggestion {
  rank: number;
  title: string;
  why: string;
  how: string;
  terms?: FixTerms;
  expected_gain?: number | null;
}

export interface ExpectSection {
  target: Json;
  class: 'overhead_bound' | 'memory_bound' | 'compute_bound' | 'unknown' | null;
  /** The class a re-run may give instead: the fixed-cost share is near the overhead-bound threshold. */
  borderline_with?: 'overhead_bound' | 'memory_bound' | 'compute_bound' | null;
  decided_by?: ExpectReason[];
  flops_per_call?: number | null;
  bytes_per_call?: number | null;
  arithmetic_intensity?: number | null;
  validation?: ExpectValidation | null;
  /** assumes: what torch.compile really captured (the compiled run): the range is exactly 1.0 when
   *  nothing compiles, reaches down to 1.0 while graph breaks stay. */
  predicted_speedup?: ExpectPrediction;
  /** The compiled run's counts, its skipped frames, and the model's range once captured whole. */
  compiled_run?: ExpectCompiledRun | null;
  suggestions?: ExpectSuggestion[];
  sweep?: ExpectSweep | null;
  boundary_bytes_per_call?: number | null;
  ceilings?: { [key: string]: Json };
  ceilings_cache?: { path: string | null; key: string; hit: boolean; written?: boolean };
  ceilings_measurement?: Json;
  device?: Json;
  element_ops_per_call?: number | null;
  flops_error?: string;
  fused_kernel_bytes_per_call?: number | null;
  module_calls?: number | null;
  outside_tensors?: number | null;
  profile?: ExpectProfile;
  roofline?: ExpectRoofline;
  time_shares?: ExpectTimeShares;
  [key: string]: unknown;
}

export interface ExpectDocument extends Document { command: 'expect'; expect: ExpectSection }

// ----------------------------------------------------------------------------- audit

export interface AuditStep {
  name: 'probe' | 'explain' | 'expect' | 'bench';
  status: 'ok' | 'failed' | 'skipped';
  wall_ns?: number | null;
  error: DocError | null;
  reason?: string | null;
}

export interface AuditSection {
  target: string;
  steps: AuditStep[];
}

/** tct audit: the probe, explain, expect and bench sections in one document. */
export interface AuditDocument extends Document {
  command: 'audit';
  audit: AuditSection;
  probe: ProbeSection;
  bench?: BenchSection;
  explain?: ExplainSection;
  expect?: ExpectSection;
}

export interface AuditOptions extends TargetOptions {
  backend?: string;
  mode?: string;
  budget?: number;
  warmup?: number;
  noCompileTime?: boolean;
  noMemory?: boolean;
  noCheck?: boolean;
  raw?: boolean;
  /** --allocator: the malloc state the headline is measured in (default 'settled'). */
  allocator?: AllocatorState;
  /** --no-allocator-compare: skip timing the other states. */
  noAllocatorCompare?: boolean;
  /** NAME=V1,V2,...: expect's sweep. */
  sweep?: string;
  /** Steps to leave out: 'explain', 'expect', 'bench' (comma-separated). */
  skip?: string;
}

/** tct startup: a start mode's name. */
export type StartMode = 'eager' | 'cold' | 'warm' | 'shipped' | 'aoti';

/** Where a start spent its time (ns); the phases add up to its first_output_ns. */
export interface StartPhases {
  interpreter_ns?: number | null;
  import_torch_ns?: number | null;
  load_artifacts_ns?: number | null;
  build_model_ns?: number | null;
  load_inputs_ns?: number | null;
  load_package_ns?: number | null;
  compile_setup_ns?: number | null;
  dynamo_ns?: number | null;
  aot_autograd_ns?: number | null;
  inductor_ns?: number | null;
  cpp_compiler_ns?: number | null;
  cache_load_ns?: number | null;
  first_call_ns?: number | null;
}

/** One cache lookup a start's TORCH_TRACE recorded. */
export interface CacheLookup {
  cache: 'fx_graph' | 'aot_autograd';
  state: 'hit' | 'miss' | 'bypass';
  /** A bypass's reason, in torch's words. */
  reason: string | null;
  /** A warm or shipped miss: 'name: before -> after' for each part of the key that changed. */
  changed: string[];
}

/** torch's own counters of a start's cache lookups. */
export interface StartCounters {
  fxgraph_cache_hit: number;
  fxgraph_cache_miss: number;
  fxgraph_cache_bypass: number;
  autograd_cache_hit: number;
  autograd_cache_miss: number;
  autograd_cache_bypass: number;
}

/** aoti-cpp: its outputs against eager's. */
export interface StartOutputCheck {
  shape_equal: boolean;
  max_abs_diff: number | null;
  max_abs_expected: number | null;
  match: boolean;
}

/** tct startup -- CMD: a call site in one start. */
export interface StartSite {
  key: string;
  name: string;
  /** From launch to the end of its first call. */
  first_output_ns: number | null;
  per_call_ns: number | null;
}

/** tct startup -- CMD: a call site's first outputs over a mode's starts (median, interval, coverage). */
export interface StartSiteSummary {
  key: string;
  name: string;
  first_output_ns: number | null;
  low_ns: number | null;
  high_ns: number | null;
  coverage: number;
}

export interface StartRecord {
  first_output_ns: number | null;
  phases: StartPhases;
  cache: CacheLookup[];
  /** torch's own counters of the same lookups. */
  torch_counters: StartCounters | null;
  trace_read: boolean;
  steady_ns: number[];
  /** A command's start: its call sites, the first output's first. */
  sites?: StartSite[];
  /** A command's start that failed or timed out. */
  error?: string | null;
}

export interface StartModeResult {
  mode: StartMode;
  description: string;
  skipped: string | null;
  error: string | null;
  /** The median over the starts, and its order-statistic interval with its coverage. */
  first_output_ns: number | null;
  low_ns: number | null;
  high_ns: number | null;
  coverage: number;
  /** The median start's phases. */
  phases: StartPhases;
  per_call_ns: number | null;
  /** Against eager; null: never (or eager itself). */
  break_even_calls: number | null;
  /** The local cache (warm), the artifacts (shipped), the package (aoti). */
  shipped_bytes: number | null;
  package_compile_ns: number | null;
  cache: CacheLookup[];
  output_check?: StartOutputCheck | null;
  /** A command's call sites. */
  sites?: StartSiteSummary[];
  starts: StartRecord[];
  [key: string]: unknown;
}

export interface StartVerdict {
  fastest: StartMode | null;
  tied: StartMode[];
  fastest_compiled: StartMode | null;
  compiled_tied: StartMode[];
}
export interface StartCacheFinding extends CacheLookup {
  mode: StartMode;
}
export interface StartCompileFinding {
  mode: StartMode;
  cpp_compiler_ns: number | null;
  first_output_ns: number | null;
}

export interface StartupSection {
  /** FILE:FACTORY, or the command's words joined. */
  target: string;
  /** tct startup -- CMD: the command as run ([] for FILE:FACTORY). */
  command?: string[];
  repeats: number;
  backend: string;
  deploy_env: string[];
  modes: StartModeResult[];
  verdict: StartVerdict;
  /** Lookups of warm or shipped starts that did not hit. */
  cache_findings: StartCacheFinding[];
  /** Warm or shipped modes that hit every cache yet spent a tenth or more in the C++ compiler. */
  still_compiled: StartCompileFinding[];
  [key: string]: unknown;
}

/** tct job: how a run reaches its compiled code. */
export type JobHow = 'eager' | 'cold' | 'warm' | 'shipped' | 'aoti';

/** A duration's mean across a mode's runs with its 95% Student t interval (ns; null: not known). */
export interface NsInterval { mean_ns: number | null; low_ns: number | null; high_ns: number | null }

export interface JobSiteRun {
  key: string;
  name: string;
  calls: number;
  /** From the job's launch to the end of the site's first call. */
  first_output_ns: number | null;
  steady_ns: number | null;
  compile_time_ns: number | null;
  recompiles: number;
  cache_hits: number;
  cache_misses: number;
  cache_bypasses: number;
}

/** One fresh process of the job. */
export interface JobRun {
  /** 1-based; 0 for the run that filled the caches warm and shipped start from. */
  round: number;
  ok: boolean;
  exit_status: number;
  exit_text: string;
  timed_out: boolean;
  interrupted: boolean;
  wall_ns: number | null;
  torch_threads: number | null;
  /** The site called most, whose calls the horizon counts. */
  anchor: string;
  anchor_calls: number;
  loop_per_call_ns: number | null;
  /** [call number, ns since launch at that call's end], thinned. */
  curve: Array<[number, number]>;
  artifacts_load_ns: number | null;
  artifacts_bytes: number | null;
  artifacts_error: string | null;
  /** aoti: torch._inductor.aoti_load_package, over the run's sites. */
  package_load_ns: number | null;
  output_lines: number;
  dir: string;
  sites: JobSiteRun[];
}

export interface JobSiteSummary {
  key: string;
  name: string;
  calls: number;
  first_output: NsInterval;
  steady: NsInterval;
  compile_time_ns: number | null;
  cache_hits: number;
  cache_misses: number;
  cache_bypasses: number;
  recompiles: number;
}

/** The mode's output against an eager run's: the first line that differs ("" for a missing line). */
export interface JobOutputCheck {
  compared: boolean;
  same: boolean;
  differing_lines: number;
  line: number;
  eager_line: string;
  mode_line: string;
}
export interface JobComparison {
  mode: string;
  ratio: { estimate: number | null; low: number | null; high: number | null };
  verdict: SpeedupVerdict;
}
export interface JobCrossing {
  calls: number;
  from: string;
  to: string;
}
export interface JobModeResult {
  /** "eager", "warm, 1 thread", "cold, mark_dynamic". */
  mode: string;
  how: JobHow;
  /** null: torch's default. */
  threads: number | null;
  /** --shape-fixes: the fix applied to every compiled site (a cold mode); null for none. */
  shape_fix: JobShapeFix | null;
  error: string | null;
  total: NsInterval;
  loop_per_call: NsInterval;
  at_horizon: NsInterval | null;
  failed: number;
  /** May be recommended: every run ok and the output the same as eager's. */
  eligible: boolean;
  output: JobOutputCheck;
  sites: JobSiteSummary[];
  runs: JobRun[];
}

export interface JobDecision {
  best: string | null;
  /** The best is faster than every other mode by its interval. */
  clear: boolean;
  /** ratio: this mode's total over the best's, paired by round. */
  others: JobComparison[];
}

/** An input's dimension a torch.export.Dim stands for. */
export interface JobAotiAt {
  /** "x[0]". */
  label: string;
  /** The positional argument's index; null for a keyword argument. */
  arg: number | null;
  kwarg: string | null;
  dim: number;
}
/** A torch.export.Dim over the sizes the job used (those always equal share one). */
export interface JobAotiDim {
  name: string;
  at: JobAotiAt[];
  min: number;
  max: number;
  sizes: number;
  /** The exported program's range for it (torch's range_constraints); null: not read. */
  exported_min: number | null;
  exported_max: number | null;
}
/** The package's outputs against eager's at one call of the build run. */
export interface JobAotiCheck {
  sizes: Record<string, number>;
  count_equal: boolean;
  shape_equal: boolean;
  max_abs_diff: number | null;
  max_abs_expected: number | null;
  match: boolean;
  error: string | null;
}
export interface JobAotiSite {
  key: string;
  name: string;
  kind: string;
  site_file: string;
  site_line: number;
  dims: JobAotiDim[];
  status: 'built' | 'export_failed' | 'package_failed' | 'small_sizes' | 'not_called';
  /** torch's own error text. */
  error: string | null;
  export_sizes: Record<string, number>;
  export_time_ns: number | null;
  package_time_ns: number | null;
  package_bytes: number | null;
  package: string;
  checks: JobAotiCheck[];
  outputs_match: boolean;
  /** Every Dim's min and max were among the sizes checked. */
  extremes_checked: boolean;
  /** Why this site keeps the mode from running; null when it does not. */
  cannot: string | null;
}
/** The AOTInductor mode's build run (not in any mode's totals). */
export interface JobAotiBuild {
  wall_ns: number | null;
  ok: boolean;
  exit_text: string;
  dir: string;
  sites: JobAotiSite[];
  /** Why the mode cannot run; null when it can. */
  cannot: string | null;
/** tct job --shape-fixes. */
export type JobShapeFix = 'static' | 'dynamic' | 'mark_dynamic' | 'mark_unbacked' | 'spec';
export interface JobShapeApi {
  torch: string;
  mark_dynamic: string | null;
  mark_unbacked: string | null;
  mark_dynamic_range: boolean;
  mark_unbacked_range: boolean;
  /** torch.compile's shape spec argument (shapes_spec in 2.13, dynamic_shapes in 2.14 and 2.15). */
  spec_keyword: string | null;
  spec_module: string | null;
}
export interface JobFixSite {
  key: string;
  name: string;
  /** "module" or "function". */
  kind: string;
  /** Where torch.compile was called. */
  file: string;
  line: number;
}
export interface JobVariedInput {
  site: string;
  site_name: string;
  input: string;
  position: number | null;
  dim: number;
  rank: number;
  min: number;
  max: number;
  sizes: number;
  recompiles: number;
}
export interface JobFixCode {
  site: string;
  where: string;
  imports: string[];
  code: string;
}
export interface JobShapeFixResult {
  fix: JobShapeFix;
  mode: string;
  baseline: string;
  not_run: string | null;
  applied: string[];
  errors: string[];
  recompiles: number;
  compile_time_ns: number | null;
  steady: NsInterval;
  total: NsInterval;
  /** The default's total over the fix's, paired by round: above 1 the fix is faster. */
  speedup: { estimate: number | null; low: number | null; high: number | null };
  verdict: SpeedupVerdict;
  /** Only where the fix ran, every run finished and the output matched. */
  code: JobFixCode[];
  gives_up: string;
}
export interface JobShapeFixes {
  api: JobShapeApi;
  sites: JobFixSite[];
  varied: JobVariedInput[];
  fixes: JobShapeFixResult[];
}

export interface JobSection {
  command: string[];
  dir: string;
  rounds: number;
  horizon_calls: number | null;
  anchor: string;
  anchor_name: string;
  filling: JobRun | null;
  aoti: JobAotiBuild | null;
  modes: JobModeResult[];
  shape_fixes: JobShapeFixes | null;
  decision: { as_run: JobDecision; at_horizon: JobDecision | null };
  /** Where the fastest mode changes with the number of calls. */
  crossings: JobCrossing[];
  notes: string[];
  [key: string]: unknown;
}

/** tct job: the job run unchanged each way, and which way is best for it. */
export interface JobDocument extends Document { command: 'job'; job: JobSection }

export interface JobOptions extends RunOptions {
  /** Comma-separated: eager, cold, warm, shipped (default: all). */
  modes?: string;
  /** Comma-separated thread counts, `default` for torch's own (default 'default,1'). */
  threads?: string;
  rounds?: number;
  /** The horizon in calls of the busiest site. */
  calls?: number;
  /** Where every run's records, trace, caches and output stay. */
  dir?: string;
  /** Comma-separated shape fixes, each a mode against cold: static, dynamic, mark_dynamic, mark_unbacked, spec, or all. */
  shapeFixes?: string;
}

/** tct startup: time to the first output of a fresh process, per start mode. */
export interface StartupDocument extends Document { command: 'startup'; startup: StartupSection }

/** tct compare: where a document came from (null: not known). */
export interface CompareSide {
  path: string;
  command: string | null;
  created: string | null;
  torch: string | null;
  target: string | null;
}

/** tct compare: one entry's change from baseline to current. */
export interface CompareItem {
  id: string;
  change:
    | 'broken' | 'new_mismatch' | 'regression' | 'still_failing' | 'improvement' | 'fixed'
    | 'mismatch_fixed' | 'unchanged' | 'no_interval' | 'only_baseline' | 'only_current';
  gate_failed: boolean;
  /** current / baseline, its 95% interval; null when either side has no interval. */
  ratio: { estimate: number; low: number | null; high: number | null; confidence: number } | null;
  baseline: Record<string, unknown> | null;
  current: Record<string, unknown> | null;
}

/** tct compare: one side's geometric-mean speedup, its 95% interval and its entry count. */
export interface CompareGeomeanSide {
  estimate: number;
  low: number | null;
  high: number | null;
  confidence: number;
  n?: number;
}

/** tct compare, of suites: each side's geometric-mean speedup (null: none). */
export interface CompareGeomean {
  baseline: CompareGeomeanSide | null;
  current: CompareGeomeanSide | null;
}

/** tct compare: a baseline document against a current one, entry by entry. */
export interface CompareSection {
  kind: 'suite' | 'bench';
  baseline: CompareSide;
  current: CompareSide;
  max_regression: number;
  items: CompareItem[];
  counts: Record<string, number>;
  passed: boolean;
  geomean: CompareGeomean | null;
  method: string;
}
export interface CompareDocument extends Document { command: 'compare'; compare: CompareSection }

export interface StartupOptions extends TargetOptions {
  /** Comma-separated start modes (default: all). */
  modes?: string;
  repeats?: number;
  backend?: string;
  mode?: string;
  /** NAME=VALUE set in the warm and shipped starts only. */
  deployEnv?: string | string[];
}

// ----------------------------------------------------------------------------- suite

/** An entry's headline numbers (the bench row's speedup and verdict, compile, break-even, graph breaks). */
export interface SuiteEntryResult {
  speedup: { estimate: number; low: number | null; high: number | null } | null;
  verdict: SpeedupVerdict;
  compile_ns: number | null;
  compile_source: 'cold' | 'first_call' | null;
  break_even_calls: number | null;
  graph_breaks: number | null;
  check: 'match' | 'mismatch' | 'not_checked' | null;
  allocator: string | null;
  allocator_best: string | null;
}

export interface SuiteEntry {
  id: string;
  target: string;
  params: { [key: string]: Json };
  settings: { [key: string]: Json };
  status: 'ok' | 'failed' | 'mismatch';
  error: DocError | null;
  wall_ns: number;
  result: SuiteEntryResult;
  bench: BenchSection | null;
  explain: ExplainSection | null;
  warnings: Warning[];
  environment: { [key: string]: Json };
}

export interface SuitePlannedEntry {
  id: string;
  target: string;
  params: { [key: string]: Json };
  settings: { [key: string]: Json };
  shard: number;
}

export interface SuiteShard {
  index: number;
  count: number;
  method: 'round_robin' | 'cost';
  costs_from: string | null;
}

export interface SuiteResumed {
  from: string;
  kept: number;
  dropped: number;
}

export interface SuiteMergedShard {
  path: string;
  shard?: SuiteShard | null;
  created?: string | null;
  entries: number;
}

export interface SuiteGeomean {
  estimate: number | null;
  low: number | null;
  high: number | null;
  confidence: number;
  n: number;
  verdict: SpeedupVerdict;
  method: string;
}

export interface SuiteSummary {
  entries: number;
  ok: number;
  failed: number;
  mismatch: number;
  failures_by_kind: Record<string, number>;
  faster: number;
  slower: number;
  inconclusive: number;
  not_measured: number;
  /** Absent in documents from before that verdict existed. */
  no_clear_difference?: number;
  geomean_speedup: SuiteGeomean | null;
  compile_ns_total: number;
  wall_ns_total: number;
}

export interface SuiteSection {
  file: string;
  name: string;
  plan: SuitePlannedEntry[];
  shard: SuiteShard | null;
  selected: string[];
  listing: boolean;
  entries: SuiteEntry[];
  summary: SuiteSummary;
  resumed?: SuiteResumed;
  /** Only in a merged document. */
  merged_from?: SuiteMergedShard[];
}

export interface SuiteDocument extends Document { command: 'suite'; suite: SuiteSection }

// ----------------------------------------------------------------------------- trace

/** One compile of a frame, read from TORCH_TRACE (durations in ns). */
export interface TraceCompile {
  compile_id: string;
  torch_compile_id: string;
  dynamo_resets: number;
  log: number;
  function: string;
  file: string;
  line: number;
  graphs: number;
  graph_breaks: number;
  graph_breaks_from_restarts: number;
  op_count: number | null;
  guard_count: number | null;
  attempts: number;
  phase_ns: Record<string, number>;
  cache: Record<string, number>;
  recompile_reasons: string[];
  restart_reasons: string[];
  fail_type: string | null;
  fail_reason: string | null;
  skipped: boolean;
}

export interface TraceBreakGroup {
  kind: string;
  label: string;
  file: string;
  line: number;
  count: number;
  reason: string;
  frame_skipped: boolean;
  /** Written when true: the frame compiled up to the break, its rest runs eagerly. */
  rest_only?: boolean;
  skip_reason: string;
  compile_ids: string[];
  from_restart: boolean;
  hint: Hint;
}

export interface TraceRecompile {
  compile_id: string;
  function: string;
  file: string;
  line: number;
  guard_failures: string[];
  kind: string;
  hint: Hint;
}

export interface TraceRecompileGroup {
  frame: string;
  function: string;
  file: string;
  line: number;
  pattern: string;
  values: string[];
  count: number;
  refused: number;
  cause: string;
  fix: string;
}

export interface TraceSkippedFrame {
  compile_id: string;
  function: string;
  file: string;
  line: number;
  reason: string;
}

export interface TraceFailure {
  compile_id: string;
  function: string;
  fail_type: string;
  fail_reason: string;
}

export interface TraceRestart {
  compile_id: string;
  function: string;
  attempts: number;
  restart_reasons: string[];
}

export interface TraceCompileWithoutId {
  kind: 'aot_inductor' | 'aot_autograd' | string;
  what: string;
  graph: string;
  function: string;
  file: string;
  line: number;
  log_line: number;
}

/** A place in a log: the file, its 1-based line, the record and what was wrong there. */
export interface TraceSpot {
  log: string;
  line: number;
  record: string | null;
  what: string;
}

export interface TraceReadStats {
  bytes: number;
  lines: number;
  records: number;
  garbled: number;
  stray_lines: number;
  truncated: number;
  bad_payloads: number;
  edited_payloads: number;
  verified_payloads: number;
  damaged: number;
  oversized_payloads: number;
  damaged_at: TraceSpot[];
  edited_at: TraceSpot[];
}

export interface TraceRank {
  rank: number | null;
  files: string[];
  root: string;
  compile_count: number;
  dynamo_resets: number;
  compiles_without_id: TraceCompileWithoutId[];
  graph_count: number;
  graph_break_count: number;
  compiles: TraceCompile[];
  graph_breaks: TraceBreakGroup[];
  recompiles: TraceRecompile[];
  recompile_groups: TraceRecompileGroup[];
  skipped_frames: TraceSkippedFrame[];
  /** Written when there is one. */
  eager_parts?: EagerPart[];
  failures: TraceFailure[];
  restarts: TraceRestart[];
  cache: Record<string, number>;
  compile_time_ns: Record<string, number>;
  record_kinds: Record<string, number>;
  read: TraceReadStats;
}

export interface TraceFirstDifference {
  position: number;
  op: string | null;
  reference_op: string | null;
}

/** A rank that compiled unlike the others (or a cache note: a shared cache's race). */
export interface TraceDivergence {
  rank: number | null;
  log: string;
  what: string;
  compile_id: string | null;
  compared_with: string[];
  first_difference: TraceFirstDifference | null;
  message: string;
}

export interface TraceSection {
  path: string;
  ranks: TraceRank[];
  divergence: TraceDivergence[];
  cache_notes: TraceDivergence[];
}

export interface TraceDocument extends Document { command: 'trace'; trace: TraceSection }

// ----------------------------------------------------------------------------- run

export interface RunSizeCalls {
  size: number;
  calls: number;
}

export interface RunVariedDim {
  /** the parameter's name (a keyword argument's), or "arg N" past the named ones */
  input: string;
  dim: number;
  /** ascending */
  sizes: RunSizeCalls[];
  /** recompiles whose newest failed guard was this dimension's size */
  recompiles: number;
}

/** the shapes the site's calls used (the bootstrap counts the calls per shape of their tensor arguments):
 *  each dimension of an input that took more than one size, with the calls at each size and the recompiles
 *  whose failed guard was that size; absent in records older than the count */
export interface RunSampledBreakdown {
  windows: number;
  /** sampled calls not cut into parts: they compiled, or came right after a compile */
  compiling: number;
  /** calls right after a window (16 each), left out of the steady calls: they still pay for it (the first
   *  about 3x a steady call) */
  settling: number;
  /** sampled calls that read the cache chain (each window's last: the reading slows the lookup), not cut
   *  into parts */
  chain_calls: number;
  /** the sampler's own work: profiler starts, stops, reading the events */
  sampler_ns: number;
  /** what sampling cost the job: sampler_ns and the time beyond a bare call's median of the sampled calls
   *  and the settling ones */
  cost_ns: number;
  /** cost_ns over the job's wall time */
  job_share: number;
  /** windows not opened: the job's own profiler was on */
  skipped: number;
  /** why sampling stopped early: torch's profiler failed */
  error: string | null;
  /** the parts, as bench's breakdown (bare: the site's steady unsampled calls) */
  call: CallBreakdown;
}

export interface RunShapeUse {
  /** calls counted (all of them, or those sampled: all_calls, one_in) */
  calls: number;
  /** distinct shapes of the tensor arguments */
  shapes: number;
  /** calls past the bootstrap's cap on distinct shapes, not broken down */
  other_calls: number;
  /** every call was counted up to this many calls of the site (0: every call) */
  all_calls: number;
  /** then 1 call in this many on average, at random gaps (reading shapes costs about 2 us a tensor
   *  argument); 0: every call */
  one_in: number;
  varied: RunVariedDim[];
}

export interface RunStall {
  compiled_p90_over_median: number | null;
  eager_p90_over_median: number | null;
  /** more runnable threads than cores while the calls ran (load average over the CPUs, or torch's threads
   *  times the job's processes): --threads 1 is the thing to try */
  with_load: boolean;
}

export interface RunFixTrial {
  /** the fix's id (fix_terms.id): ddp_wrap_order compiles the module inside DDP instead of DDP's forward */
  fix: string;
  /** graph breaks at the site as the job is written (as torch counts them) */
  graph_breaks_before: number;
  /** graph breaks at the site with the fix */
  graph_breaks_after: number;
  before: RunCallTimes;
  after: RunCallTimes;
  /** before / after steady per-call median, 95% bootstrap: above 1, the fix is faster */
  speedup: { estimate: number | null; low: number | null; high: number | null; confidence: number };
  /** the one verdict rule on the speedup's interval: faster means faster with the fix */
  verdict: 'faster' | 'slower' | 'no_clear_difference' | 'inconclusive' | 'not_measured';
}

export interface RunCompiledRun {
  run: number;
  /** from the trace's cache records at the site (hits, misses, bypasses), not the run's order */
  cache_state: 'cold' | 'warm' | 'partly warm' | 'bypassed' | 'no cache';
  cache: Record<string, number>;
  compile_time_ns: number | null;
  compile_cost_ns: number | null;
  break_even_calls: number | null;
}

export interface RunEagerComparison {
  compiled: RunCallTimes;
  eager: RunCallTimes;
  speedup: {
    estimate: number | null;
    low: number | null;
    high: number | null;
    confidence: number;
    covers: string;
    runs_each: number;
  };
  compile_cost_ns: number | null;
  break_even_calls: number | null;
  paid_back: boolean;
  /** bench's speedup verdict, the same rule: faster or slower when the whole interval is on one side of 1,
   *  no_clear_difference when it holds 1 and is narrow, inconclusive when wider than 1.5x (high/low);
   *  no_difference only in documents from an older tct */
  verdict: 'faster' | 'slower' | 'no_clear_difference' | 'inconclusive' | 'not_measured' | 'no_difference';
  /** what the per-call times compared are: host time, or CUDA event time where every run has it */
  clock: 'host' | 'cuda_events';
}

export interface RunRecompileGroup {
  frame: RunFrame;
  /** the guard with its value left out */
  guard: string;
  /** the values the compiled entries were specialized on */
  values: string[];
  /** recompiles with this cause (a compile the limit refused is not one) */
  count: number;
  limit: number | null;
  code: string;
  code_file: string;
  code_line: number;
  cause:
    | 'python_value' | 'module_attribute' | 'size' | 'stride' | 'dtype' | 'device' | 'grad_mode' | 'identity'
    | 'type' | 'other';
  why: string;
  fix: string;
  cost: string;
  compile_time_ns: number | null;
  fix_terms?: FixTerms;
  /** code_file is as torch shortened it on the guard's line: no file of the job (the site's code, the
   *  reason's own stack) ends with it */
  code_file_truncated: boolean;
}

export interface RunFallback {
  frame: RunFrame;
  cause: 'recompile_limit' | 'accumulated_recompile_limit' | 'compile_failed';
  limit_value: number | null;
  /** index of the call that hit it (bootstrap) */
  at_call: number | null;
  /** the guard that kept failing, its value left out */
  guard: string;
  /** torch's own reason (headline), from the trace */
  reason: string;
  kind: string;
  fix: string;
  calls_after: number;
  /** calls since that ran no compiled graph at all: known for the site's own frame only */
  eager_calls_after: number | null;
  fix_terms?: FixTerms;
}

export interface RunSiteBreak {
  file: string;
  line: number;
  kind: string;
  reason: string;
  fix: string;
  count: number;
  fix_terms?: FixTerms;
}

export interface RunFrameCompile {
  compile_id: string;
  function: string;
  line: number;
  phase_ns: Record<string, number | null>;
  recompile_reasons: string[];
  cache: Record<string, number>;
  graph_breaks: number;
  skipped: boolean;
  fail_reason: string | null;
  frame: string;
  fail_type: string | null;
  /** compilation_metrics' guard count of the cache entry it made (absent in documents before it) */
  guard_count?: number | null;
}

export interface RunSite {
  /** 'file:line Name': one call site across processes and runs */
  key: string;
  kind: 'function' | 'module';
  name: string;
  /** where torch.compile was called */
  site: { file: string; line: number };
  /** the frame Dynamo compiles (joins the trace) */
  code: { function: string; file: string; line: number };
  calls: number;
  /** calls during which Dynamo compiled (the first, recompiles) */
  compiling_calls: number;
  /** calls that ran no compiled graph (a skipped frame, the recompile limit); null when the bootstrap could
   *  not count graphs */
  eager_calls: number | null;
  first_eager_call: number | null;
  all_calls: RunCallTimes;
  /** calls with no compile in them, less the one after each compile */
  steady_calls: RunCallTimes;
  compiling_calls_ns: number | null;
  /** all_calls.total_ns / the job's wall time */
  job_share: number | null;
  compile_time_ns: number | null;
  compiles: RunFrameCompile[];
  recompiles: number;
  /** Graph breaks as torch counts them (counters['graph_break']): records of code that runs eagerly instead
   *  (eager_parts) are not counted. Documents of earlier versions counted them too. */
  graph_breaks: number;
  /** What of the site's code runs eagerly on every call (the trace's records, the rule explain and trace
   *  use). Its share of the call's time is not measured here. Absent in documents of earlier versions. */
  eager_parts?: EagerPart[];
  breaks: RunSiteBreak[];
  cache: Record<string, number>;
  /** documents before tct 0.x's fallbacks list: the site's own frame hit the recompile limit */
  fallback?: {
    at_call: number | null;
    limit: string;
    limit_value?: number | null;
    guard: string;
    kind: string;
    fix: string;
    calls_after: number;
    eager_calls_after: number;
    fix_terms?: FixTerms;
  } | null;
  /** --compare-eager */
  eager: RunEagerComparison | null;
  /** CUDA event time of the steady calls (CUDA in use at torch.compile); null otherwise */
  device_steady_calls: RunCallTimes | null;
  /** frames of the site that run eagerly from some call on, silently: a recompile limit hit, or a compile
   *  Dynamo gave up on; the site's own frame first */
  fallbacks: RunFallback[];
  /** recompiles said once per frame and cause, from each recompile's newest failed guard */
  recompile_groups: RunRecompileGroup[];
  /** the site's outputs need grad: its backward runs in loss.backward(), outside the timed call; per-call
   *  figures cover the forward alone */
  backward_outside: boolean;
  /** --compare-eager: each compiled run's compile at this site, with its cache state */
  compiled_runs: RunCompiledRun[];
  /** "ddp": torch.compile was given a DistributedDataParallel (the site's code is DDP's forward) */
  wrapper: string | null;
  /** --try-fixes: each fix tct applied in one more run of the job, against the job as written (one run each
   *  way: the interval covers call-to-call variation, not run-to-run); the breaks with that fix then have
   *  fix_terms.untried false */
  fix_trials: RunFixTrial[];
  /** the shapes the site's calls used (the bootstrap counts the calls per shape of their tensor arguments):
   *  each dimension of an input that took more than one size, with the calls at each size and the recompiles
   *  whose failed guard was that size; absent in records older than the count */
  shape_use?: RunShapeUse;
  /** where the site's compiled calls' time goes, from the calls the bootstrap ran under torch's profiler in
   *  short windows (absent with --no-breakdown, or where no call was sampled); those calls are left out of
   *  every other figure of the site */
  breakdown?: RunSampledBreakdown;
  /** steady calls whose p90 is over 3x their median (2x when the machine had more runnable threads than
   *  cores: with_load): threads waiting for a core */
  stall: RunStall | null;
  /** compiles the recompile limit refused: failures in torch's compilation_metrics, no recompiles */
  refused_compiles: number;
  /** compiles begun and never finished (no compilation_metrics): the process ended in them; compile_time_ns
   *  holds none of their time */
  unfinished_compiles: number;
}

/** a frame of the site as the user knows it */
export interface RunFrame {
  /** Dynamo's frame id ('1'), shared by its recompiles */
  frame: string;
  function: string;
  file: string;
  line: number;
  /** the compiled function itself, the code after one of its graph breaks (a resume function), or a
   *  function it calls compiled as its own frame */
  role: 'site' | 'after_break' | 'nested';
  break_line: number | null;
}

export interface RunCallTimes {
  calls: number;
  median_ns: number | null;
  p90_ns: number | null;
  total_ns: number | null;
}

export interface RunFirstEnd {
  rank: number | null;
  pid: number;
  /** torch's: negative for a signal */
  exitcode: number;
  signal: string | null;
  moment: 'before torch.compile' | 'before its first call returned' | 'while compiling' | 'in its loop';
  compiling: string | null;
  calls: number;
  records: boolean;
  trace_compiles: number;
  stopped: number[];
}

/** the machine while the compiled run ran */
export interface RunContention {
  load_1m: number | null;
  cpus: number;
  involuntary_switches_per_s: number | null;
  torch_threads: number | null;
}

export interface RunFixRun {
  /** the fix's id (fix_terms.id): what the bootstrap applied in that run */
  fix: string;
  exit_status: number;
  exit: string;
}

export interface RunDivergence {
  rank: number | null;
  what: string;
  message: string;
}

export interface RunProcess {
  rank: number | null;
  pid: number;
  /** its records hold every call it made: written at a normal exit (false when it died before writing at
   *  exit, when a signal ended it, or when it left no records) */
  complete: boolean;
  sites: RunSite[];
  /** its records were written at its end (normal exit or a signal it could catch), not only by a periodic
   *  flush */
  records_final: boolean;
  /** a live report: the process was still running (its records are those of its last flush) */
  running: boolean;
  /** the signal that ended it as it wrote its records (SIGTERM: a launcher such as torchrun stopping its
   *  workers) */
  ended_by: string | null;
  /** no record of its own (it ended before its first flush): known from its TORCH_TRACE log */
  records_missing: boolean;
  /** records_missing: the compiles its trace log holds */
  trace_compiles: number;
  /** records_missing: the recompiles among them */
  trace_recompiles: number;
}

/** Per process that made a compiled object (per rank under torchrun), per call site: calls, time per call
 *  (host time, ns), what the TORCH_TRACE logs say compile did there, silent fallbacks, and with
 *  --compare-eager eager against compiled. */
export interface RunSection {
  command: string[];
  /** the job's status as a shell shows it (128+N: killed by signal N) */
  exit_status: number;
  exit: string;
  interrupted: boolean;
  wall_ns: number | null;
  record_dir: string;
  trace_dir: string;
  torch: string;
  processes_with_torch: number;
  processes: RunProcess[];
  divergence: RunDivergence[];
  notes: string[];
  compare_eager: { runs_each: number; stance: string; eager_exit_statuses: number[] } | null;
  /** --try-fixes: null when not asked; else the runs made with a fix applied (none when no break had a fix
   *  tct can try) */
  try_fixes: { runs: RunFixRun[] } | null;
  /** tct trace's section for the compiled run's logs (null: no log) */
  trace: TraceSection | null;
  /** where the job ran; the text report shows paths relative to it */
  cwd: string;
  /** --threads N, given to the job and its eager runs */
  threads: number | null;
  /** the machine while the compiled run ran */
  contention: RunContention;
  /** the worker a launcher (torchrun) saw fail first: its rank, the signal or exit code, where it was, what
   *  of it was kept, the ranks the launcher then stopped */
  first_end: RunFirstEnd | null;
  [key: string]: unknown;
}

/** tct run -- COMMAND...: the job run as it is, per torch.compile call site. */
export interface RunDocument extends Document { command: 'run'; run: RunSection }

// ----------------------------------------------------------------------------- wrapper

export interface RunOptions {
  /** Path of the tct binary (else $TCT_BIN, else `tct` on PATH: `pip install torch-compile-tool`). */
  bin?: string;
  /** Environment of the child process (default: process.env). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Aborting sends tct SIGTERM (it writes what it measured) and rejects with TctAbortError. */
  signal?: AbortSignal;
  /** After an abort, SIGKILL tct if it has not exited within this many ms (default 5000). */
  killAfterMs?: number;
  /** Resolve with the document instead of rejecting when tct exits 1 (check failed). */
  allowCheckFailure?: boolean;
  /** Extra arguments appended verbatim. */
  args?: string[];
  /** Common tct flags. */
  python?: string;
  agentPath?: string;
  /** tct --timeout: seconds one step may take. */
  timeout?: number;
  out?: string | string[];
  verbose?: boolean;
  quiet?: boolean;
  /** Any other tct flag, camelCase -> --kebab-case; true -> flag, false/null -> left out. */
  [flag: string]: unknown;
}

export interface TargetOptions extends RunOptions {
  /** --param key=value; each value is passed as a JSON literal. */
  params?: Record<string, Json>;
  device?: string;
  dtype?: string;
  train?: boolean;
}

export interface BenchOptions extends TargetOptions {
  backend?: string;
  mode?: string;
  dynamic?: string;
  fullgraph?: boolean | string;
  precision?: string | number;
  budget?: number;
  warmup?: number;
  noCheck?: boolean;
  noCompileTime?: boolean;
  noMemory?: boolean;
  raw?: boolean;
  /** --allocator: the malloc state the headline is measured in (default 'settled'). */
  allocator?: AllocatorState;
  /** --no-allocator-compare: skip timing the other states. */
  noAllocatorCompare?: boolean;
  /** --no-breakdown: skip taking a compiled call apart (profiled window, cache chain, fixes). */
  noBreakdown?: boolean;
}

export declare const ExitCode: Readonly<{
  OK: 0; CHECK_FAILED: 1; USAGE: 2; TARGET_FAILED: 3; INTERNAL: 4; INTERRUPTED: 130;
}>;

export declare class TctError extends Error {
  /** tct's exit code; null when tct never ran or was killed by a signal. */
  readonly exitCode: number | null;
  /** doc.error.kind when tct printed a document with an error. */
  readonly kind: string | null;
  readonly hint: string | null;
  /** The (partial) JSON document tct printed, if any. */
  readonly document: Document | null;
  readonly stderr: string;
  readonly args: string[];
  readonly signal: NodeJS.Signals | null;
}
/** Exit 1: the check asked for failed (not usable, outputs differ, gate crossed). */
export declare class TctCheckFailedError extends TctError {}
/** Exit 2: bad usage or bad input. */
export declare class TctUsageError extends TctError {}
/** Exit 3: the target raised, crashed, hung or failed to compile. */
export declare class TctTargetError extends TctError {}
/** Exit 4 (or any unknown code): a bug in tct. */
export declare class TctInternalError extends TctError {}
/** Exit 130, or tct killed by a signal. */
export declare class TctInterruptedError extends TctError {}
/** options.signal aborted; `name` is 'AbortError', `cause` the signal's reason. */
export declare class TctAbortError extends TctInterruptedError {
  readonly name: 'AbortError';
  readonly code: 'ABORT_ERR';
}
/** The binary was not found, could not start, or printed no JSON document. */
export declare class TctSpawnError extends TctError {}

export declare function probe(options?: RunOptions & { smoke?: boolean; backend?: string }): Promise<ProbeDocument>;
export declare function bench(target: string, options?: BenchOptions): Promise<BenchDocument>;
export declare function explain(target: string, options?: TargetOptions): Promise<ExplainDocument>;
export declare function expect(target: string, options?: TargetOptions & { sweep?: string }): Promise<ExpectDocument>;
export declare function audit(target: string, options?: AuditOptions): Promise<AuditDocument>;
export declare function diff(before: string, after: string, options?: RunOptions): Promise<DiffDocument>;
export declare function startup(target: string, options?: StartupOptions): Promise<StartupDocument>;
/** tct job -- COMMAND...: e.g. job(['python', 'serve.py'], { calls: 3000 }). */
export declare function job(command: string[], options?: JobOptions): Promise<JobDocument>;
/** Any command: `run(['probe', '--smoke'])`; --json is appended. */
export declare function run(argv: string[], options?: RunOptions): Promise<Document>;
/** Options -> tct flags (exposed for tests and custom commands). */
export declare function toArgs(options?: TargetOptions): string[];
/** The binary that would run: options.bin, $TCT_BIN, then PATH. */
export declare function findBinary(options?: { bin?: string; env?: NodeJS.ProcessEnv }): string;
