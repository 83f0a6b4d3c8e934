using System.Runtime.CompilerServices;

namespace Millrace.Parallel.Tests;

/// <summary>Sources that count what is read from them.</summary>
public sealed class CountingSource(int count)
{
    private int _yielded;
    private int _disposed;

    public int Yielded => Volatile.Read(ref _yielded);

    public bool Disposed => Volatile.Read(ref _disposed) == 1;

    public IEnumerable<int> Items()
    {
        try
        {
            for (var i = 0; i < count; i++)
            {
                Interlocked.Increment(ref _yielded);
                yield return i;
            }
        }
        finally
        {
            Volatile.Write(ref _disposed, 1);
        }
    }

    public async IAsyncEnumerable<int> ItemsAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        try
        {
            for (var i = 0; i < count; i++)
            {
                if (i % 64 == 0)
                {
                    await Task.Yield();
                }

                cancellationToken.ThrowIfCancellationRequested();
                Interlocked.Increment(ref _yielded);
                yield return i;
            }
        }
        finally
        {
            Volatile.Write(ref _disposed, 1);
        }
    }
}

/// <summary>Tracks how many items run at once.</summary>
public sealed class ConcurrencyProbe
{
    private int _current;
    private int _max;

    public int Max => Volatile.Read(ref _max);

    public IDisposable Enter()
    {
        var now = Interlocked.Increment(ref _current);
        int seen;
        while (now > (seen = Volatile.Read(ref _max)) && Interlocked.CompareExchange(ref _max, now, seen) != seen)
        {
        }

        return new Exit(this);
    }

    private sealed class Exit(ConcurrencyProbe probe) : IDisposable
    {
        public void Dispose() => Interlocked.Decrement(ref probe._current);
    }
}
