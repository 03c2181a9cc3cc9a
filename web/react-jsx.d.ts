// react-jsx.d.ts: <attention-walkthrough> in TSX for React 19, from
// "attention-by-hand/react-jsx" (types only: `import type {} from "attention-by-hand/react-jsx"`
// once in the project). Apart from element.d.ts, so that a project without React's types never
// reads it.
import type { DetailedHTMLProps, HTMLAttributes } from "react";
import type { AttentionWalkthroughElement } from "./element.js";

/**
 * Its props: the element's attributes, and the scene as an id or a custom scene object (React 19
 * sets an object as the element's scene property). Listen to its events through a ref.
 */
export interface AttentionWalkthroughProps extends DetailedHTMLProps<
  HTMLAttributes<AttentionWalkthroughElement>,
  AttentionWalkthroughElement
> {
  scene?: string | Record<string, unknown>;
  /** 1-based. */
  step?: number | string;
  controls?: boolean;
  predict?: boolean;
  nav?: boolean;
  /** The URL of a custom scene's JSON. */
  src?: string;
  /** "compact": the player and the step alone, to fit a slide. */
  layout?: "compact";
}

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "attention-walkthrough": AttentionWalkthroughProps;
    }
  }
}
