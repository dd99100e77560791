/**
 * The types of the state-update decision (issue 14, issue 24), shared by the pattern reader
 * (./state-update.ts) and the MLP head (./state-update-mlp.ts) without an import cycle;
 * ./state-update.ts re-exports them.
 *
 * @module
 */

/** Kinds of state a memory can hold. */
export type StateKind = 'lives' | 'works' | 'relationship' | 'owns' | 'schedule' | 'preference' | 'contact' | 'plan';

/** One state claim read from a text. */
export interface StateClaim {
  kind: StateKind;
  /** Lower-cased subject: the speaker for first-person claims, else the name before the verb. */
  subject: string;
  /** What the state is about inside its kind (`home`, `car`, `favourite food`, `phone`). */
  key: string;
  /** The value, lower-cased (`porto`, `acme`), or `''` when the text names none. */
  value: string;
}

/** One side of a pair: its text, speaker and time. */
export interface StateSide {
  text: string;
  speaker?: string | undefined;
  /** Epoch ms of its time (observation, else ingestion). */
  timeMs: number;
}

/** The answer of one pair. */
export interface StateUpdateDecision {
  /** P(the newer side updates the older), in [0,1]. */
  probability: number;
  /** The kind of state that changed, when one did. */
  kind?: StateKind;
  /** Who answered ({@link STATE_UPDATE_STANDIN_ID}). */
  model: string;
}

/** What one side's text gives the features, read once per text and speaker ({@link StateReadings}). */
export interface SideReading {
  /** The statements (questions left out), without the speaker label. */
  text: string;
  body: string;
  claims: StateClaim[];
  topics: number[];
  values: Set<string>;
  words: Set<string>;
  /** Lower-cased tokens without the names a listener is called by. */
  tokens: string[];
  /** Words of ≥ 3 letters without the listener's names (the substitution feature). */
  frameWords: Set<string>;
  lead: string;
  end: boolean;
  change: boolean;
  addition: boolean;
  repeat: boolean;
  history: boolean;
  cancelWord: boolean;
  future: boolean;
  plans: string[];
}

/**
 * A cache of side readings for a batch of decisions (the write path asks up to K_w pairs of one
 * node, maintenance up to 20 per node): create one per batch, never share it across memories.
 */
export type StateReadings = Map<string, SideReading>;

/** The weights of the MLP head: standardise, one ReLU hidden layer, sigmoid output (./state-update-mlp.ts). */
export interface StateMlpWeights {
  readonly features: readonly string[];
  readonly mean: readonly number[];
  readonly scale: readonly number[];
  /** Hidden units H. */
  readonly hidden: number;
  /** H × F, row-major. */
  readonly w1: readonly number[];
  readonly b1: readonly number[];
  readonly w2: readonly number[];
  readonly b2: number;
  /**
   * The head was fitted clause by clause (h-update3, the trainer's `--clauses`) and is read so: a
   * pair's answer is its best clause pair's (./state-update-clauses.ts). Absent: the whole texts.
   */
  readonly clauses?: boolean;
}

/**
 * What the MLP head needs of the pattern reader of ./state-update.ts, handed to it by that module
 * (so the two do not import each other): the pattern feature names and row, a side's reading,
 * the matched kind, and the logistic head as the fallback.
 */
export interface StatePatternReader {
  readonly names: readonly string[];
  features(newer: StateSide, older: StateSide, memo: StateReadings): number[];
  side(side: StateSide, memo: StateReadings): SideReading;
  kindOf(newer: StateSide, older: StateSide, memo: StateReadings, cancelPlan: boolean): StateKind | undefined;
  fallback(newer: StateSide, older: StateSide, memo: StateReadings): StateUpdateDecision;
}
