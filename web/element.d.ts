// element.d.ts: types for <attention-walkthrough>, from "attention-by-hand/element".
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

export interface AttentionWalkthroughElement extends HTMLElement {
  readonly state: WalkthroughState | undefined;
  /** Goes to a step, 1-based. */
  goTo(step: number): void;
  play(): void;
  pause(): void;
  /** { q, k, v } or { x, wq, wk, wv }, any of them. False (and an `error` event) if rejected. */
  setInputs(inputs: Record<string, Matrix>): boolean;
}

export interface AttentionWalkthroughEvents {
  ready: CustomEvent<{ scene: string }>;
  stepchange: CustomEvent<{ scene: string; step: number; stepId: string; total: number }>;
  error: CustomEvent<{ message: string }>;
}

declare global {
  interface HTMLElementTagNameMap {
    "attention-walkthrough": AttentionWalkthroughElement;
  }
}
