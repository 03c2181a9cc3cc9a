// element.d.ts: types for <attention-walkthrough>, from "attention-by-hand/element" (the ES
// module, the CommonJS entry and the classic script alike): its state, methods and events; and
// for <attention-heads>, every head at once, which the same script defines (web/heads.js).
import type { Matrix } from "./attention.js";

export interface WalkthroughState {
  scene: string;
  /** 1-based. */
  step: number;
  stepId: string;
  steps: string[];
  lang: "zh" | "en";
  playing: boolean;
  /** Predict mode: each step's results hidden until the learner has answered. */
  predict: boolean;
  inputs: Record<string, Matrix>;
  output: Matrix;
}

/** The element's own events: `ready` and `stepchange` bubble, `error` does not. */
export interface AttentionWalkthroughEvents {
  ready: CustomEvent<{ scene: string }>;
  stepchange: CustomEvent<{ scene: string; step: number; stepId: string; total: number }>;
  error: CustomEvent<{ message: string }>;
}

/** Every event an `<attention-walkthrough>` fires: an element's, with `error` replaced. */
export interface AttentionWalkthroughEventMap
  extends Omit<HTMLElementEventMap, keyof AttentionWalkthroughEvents>, AttentionWalkthroughEvents {}

export interface AttentionWalkthroughElement extends HTMLElement {
  readonly state: WalkthroughState | undefined;
  /**
   * The scene: an id (the `scene` attribute) or a custom scene as an object, in the form of
   * scene.schema.json, which no template language has to escape.
   */
  scene: string | Record<string, unknown> | null;
  /** Goes to a step, 1-based. False (and an `error` event) for a step that is not a number. */
  goTo(step: number): boolean;
  play(): void;
  pause(): void;
  /** { q, k, v } or { x, wq, wk, wv }, any of them. False (and an `error` event) if rejected. */
  setInputs(inputs: Record<string, Matrix>): boolean;
  addEventListener<K extends keyof AttentionWalkthroughEventMap>(
    type: K,
    listener: (
      this: AttentionWalkthroughElement,
      event: AttentionWalkthroughEventMap[K],
    ) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof AttentionWalkthroughEventMap>(
    type: K,
    listener: (
      this: AttentionWalkthroughElement,
      event: AttentionWalkthroughEventMap[K],
    ) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

/** What `<attention-heads>` draws (Python's show_heads writes it): each head's weights as the core
 * computed them; the q, k and v of heads that open step by step, or `why` (zh and en) they do not. */
export interface HeadsData {
  title: string;
  /** One label a row of x. */
  tokens: string[];
  why: { zh: string; en: string } | null;
  layers: {
    /** From 1, as the grid says it. */
    layer: number;
    d_head: number;
    scale: number;
    mask: "causal" | null;
    heads: { weights: Matrix; q?: Matrix; k?: Matrix; v?: Matrix }[];
  }[];
}

export interface AttentionHeadsElement extends HTMLElement {
  /** The data drawn (null before it is, or when it could not be); set it to draw another. */
  data: HeadsData | null;
  /** Opens a head's walkthrough below the grid, layer and head from 1; false if it has none. */
  open(layer: number, head: number): boolean;
}

declare global {
  interface HTMLElementTagNameMap {
    "attention-walkthrough": AttentionWalkthroughElement;
    "attention-heads": AttentionHeadsElement;
  }
}
