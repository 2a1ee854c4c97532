/** Tells the service pages something they show changed (a device event, a round step, an action). */
export interface Changes {
  onChange(listener: () => void): () => void;
  changed(): void;
}

export function changeSignal(): Changes {
  const listeners = new Set<() => void>();
  return {
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed() {
      for (const l of listeners) l();
    },
  };
}
