// types-check-react.tsx: compiled by `tsc --noEmit` with the rest, React 19's JSX (react-jsx):
// the tag type-checks once attention-by-hand/react-jsx is imported, and wrong props do not.
import type {} from "attention-by-hand/react-jsx";
import type { AttentionWalkthroughElement } from "attention-by-hand/element";
import { useEffect, useRef } from "react";

const weather = { title: "Take an umbrella?", inputs: { q: [[1]], k: [[1]], v: [[1]] } };

export function Lesson({ onStep }: { onStep: (step: number) => void }) {
  const ref = useRef<AttentionWalkthroughElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const listener = (e: CustomEvent<{ step: number }>) => onStep(e.detail.step);
    element.addEventListener("stepchange", listener);
    return () => element.removeEventListener("stepchange", listener);
  }, [onStep]);
  return (
    <>
      <attention-walkthrough ref={ref} scene="age" lang="zh" step={3} />
      <attention-walkthrough scene={weather} lang="en" controls predict nav />
      <attention-walkthrough src="/my-scene.json" step="2" className="wide" />
      {/* @ts-expect-error: a scene is an id or an object */}
      <attention-walkthrough scene={3} />
      {/* @ts-expect-error: no such attribute */}
      <attention-walkthrough colour="red" />
    </>
  );
}
