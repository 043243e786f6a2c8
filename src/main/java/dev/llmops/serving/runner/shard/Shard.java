package dev.llmops.serving.runner.shard;

/**
 * One of {@code count} parts of a run's workload, so that the parts together send exactly what one runner would:
 * request (or session, or arrival) {@code k} of every stage's seeded sequence belongs to shard {@code k mod count}, and
 * a closed loop's streams are split as evenly as they go, the lower shards taking one more.
 *
 * @param index from 0
 * @param count from 1 to {@link #MAX_COUNT}
 */
public record Shard(int index, int count) {

    public static final int MAX_COUNT = 64;

    /** The whole workload, one runner. */
    public static final Shard WHOLE = new Shard(0, 1);

    public Shard {
        if (count < 1 || count > MAX_COUNT || index < 0 || index >= count) {
            throw new IllegalArgumentException("a shard is I/N with N from 1 to " + MAX_COUNT
                    + " and I from 0 to N-1, not " + index + "/" + count);
        }
    }

    /** Parses {@code I/N}. */
    public static Shard parse(String text) {
        String[] parts = text.trim().split("/", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("is not I/N");
        }
        try {
            return new Shard(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("is not I/N with whole numbers");
        }
    }

    public boolean whole() {
        return count == 1;
    }

    /** Whether request, session or arrival {@code k} of a stage is this shard's. */
    public boolean owns(long k) {
        return k % count == index;
    }

    /** This shard's streams of a closed loop of {@code streams}. */
    public int streams(int streams) {
        return streams / count + (index < streams % count ? 1 : 0);
    }

    /** How many of the first {@code requests} positions are this shard's. */
    public int requests(int requests) {
        return requests <= index ? 0 : (requests - index + count - 1) / count;
    }

    /** The {@code n}-th (from 0) position of a stage's sequence that is this shard's. */
    public long position(long n) {
        return n * count + index;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
