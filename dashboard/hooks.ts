/** Hooks the pages share: data from the control API, kept fresh by the event stream without a fetch per event. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ControlApiError } from './control-api.js';
import { subscribe, type SandboxEvent } from './event-stream.js';

export function useEvents(types: ReadonlyArray<SandboxEvent['type']>, handler: (event: SandboxEvent) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => subscribe((event) => types.includes(event.type) && latest.current(event)), [types.join(',')]);
}

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  reload: () => void;
}

/** Again on each event of `types`, at most once per `everyMs`, and whenever `path` changes. */
export function useControl<T>(path: string | undefined, types: ReadonlyArray<SandboxEvent['type']> = [], everyMs = 500): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [tick, setTick] = useState(0);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (path === undefined) return;
    let current = true;
    api<T>(path)
      .then((value) => current && (setData(value), setError(undefined)))
      .catch((problem: unknown) => current && setError(problem instanceof ControlApiError ? problem.messages.join('\n') : String(problem)));
    return () => {
      current = false;
    };
  }, [path, tick]);
  useEvents(types, () => {
    if (pending.current !== undefined) return;
    pending.current = setTimeout(() => {
      pending.current = undefined;
      setTick((n) => n + 1);
    }, everyMs);
  });
  useEffect(() => () => clearTimeout(pending.current), []);
  return { data, error, reload: () => setTick((n) => n + 1) };
}

/** `act(call)` runs it, keeps the envelope's messages to show, then calls `after`. */
export function useAction(after?: () => void): { error: string | undefined; act: (call: () => Promise<unknown>) => Promise<void> } {
  const [error, setError] = useState<string | undefined>(undefined);
  const act = async (call: () => Promise<unknown>) => {
    try {
      await call();
      setError(undefined);
    } catch (problem) {
      setError(problem instanceof ControlApiError ? problem.messages.join('\n') : String(problem));
    }
    after?.();
  };
  return { error, act };
}
