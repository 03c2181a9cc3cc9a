// types-check-react.tsx: compiled by `tsc --noEmit` with the rest, React 19's JSX (react-jsx):
// the tag type-checks once attention-by-hand/react-jsx is imported, and wrong props do not.
// It begins with docs/embedding.md's React wrapper, as written there (hosts.test.mjs checks that).
import { useEffect, useRef } from "react";
import type { AttentionWalkthroughElement } from "attention-by-hand/element";
import type { AttentionWalkthroughProps } from "attention-by-hand/react-jsx";
import "attention-by-hand/element";

type Props = Omit<AttentionWalkthroughProps, "ref"> & { onStepChange?: (step: number) => void };

export function Walkthrough({ onStepChange, ...props }: Props) {
  const ref = useRef<AttentionWalkthroughElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || !onStepChange) return;
    const listener = (e: CustomEvent<{ step: number }>) => onStepChange(e.detail.step);
    element.addEventListener("stepchange", listener);
    return () => element.removeEventListener("stepchange", listener);
  }, [onStepChange]);
  return <attention-walkthrough ref={ref} {...props} />;
}

// The tag itself, and the wrapper.
const weather = { title: "Take an umbrella?", inputs: { q: [[1]], k: [[1]], v: [[1]] } };

export const lesson = (
  <>
    <attention-walkthrough scene="age" lang="zh" step={3} />
    <attention-walkthrough scene={weather} lang="en" controls predict nav />
    <attention-walkthrough src="/my-scene.json" step="2" className="wide" />
    <Walkthrough scene={weather} lang="en" step={2} onStepChange={(step: number) => step + 1} />
    {/* @ts-expect-error: a scene is an id or an object */}
    <attention-walkthrough scene={3} />
    {/* @ts-expect-error: no such attribute */}
    <attention-walkthrough colour="red" />
    {/* @ts-expect-error: the wrapper's props are the element's */}
    <Walkthrough scene="age" colour="red" />
  </>
);
