/**
 * Reads that share statements under load. At most `inFlight` statements run at once; a read asked for while
 * they all run waits, and when one ends the reads that waited (up to `most`) go to PostgreSQL together as one
 * statement (`many`), or alone (`one`) if only one waited. An idle server so runs each read at once, as before;
 * a busy one pays PostgreSQL's and the driver's fixed cost of a statement (a round trip, a plan's start, the
 * socket writes that wake a backend) once for several requests. Nothing is cached: every read waits only for a
 * statement that starts after it was asked for.
 */
export function batchedReads<Key, Answer>(options: {
  one: (key: Key) => Promise<Answer>;
  /** The answers of `keys`, in their order. */
  many: (keys: Key[]) => Promise<Answer[]>;
  inFlight: number;
  most: number;
}): (key: Key) => Promise<Answer> {
  interface Waiting {
    key: Key;
    resolve: (answer: Answer) => void;
    reject: (error: unknown) => void;
  }
  let waiting: Waiting[] = [];
  let running = 0;

  function next(): void {
    if (waiting.length === 0 || running >= options.inFlight) return;
    const batch = waiting.slice(0, options.most);
    waiting = waiting.slice(batch.length);
    running += 1;
    const answers =
      batch.length === 1
        ? options.one(batch[0]!.key).then((answer) => [answer])
        : options.many(batch.map((read) => read.key));
    answers
      .then(
        (all) => batch.forEach((read, i) => read.resolve(all[i]!)),
        (error: unknown) => batch.forEach((read) => read.reject(error)),
      )
      .finally(() => {
        running -= 1;
        next();
      });
  }

  return (key) =>
    new Promise<Answer>((resolve, reject) => {
      waiting.push({ key, resolve, reject });
      next();
    });
}
