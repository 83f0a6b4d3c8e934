using System.Threading.Tasks.Dataflow;

namespace Millrace.Benchmarks.Parallel;

/// <summary>The work items of the parallel suites, shared so every row of a table does the same work.</summary>
internal static class ParallelWork
{
    /// <summary>CPU-light work that completes synchronously: what is left is the operator's own overhead.</summary>
    public static ValueTask<int> Light(int x, CancellationToken cancellationToken) => new(unchecked((x * 31) + 7));

    /// <summary>Simulated I/O: one timer wait of <paramref name="milliseconds"/>.</summary>
    public static async ValueTask<int> DelayAsync(int x, int milliseconds, CancellationToken cancellationToken)
    {
        await Task.Delay(milliseconds, cancellationToken).ConfigureAwait(false);
        return x;
    }

    /// <summary>Runs <paramref name="body"/> over <paramref name="count"/> items with a bounded TPL Dataflow block.</summary>
    public static async Task<int> DataflowAsync(int count, int dop, Func<int, Task<int>> body)
    {
        var block = new TransformBlock<int, int>(body, new ExecutionDataflowBlockOptions { MaxDegreeOfParallelism = dop, BoundedCapacity = dop * 2 });
        var sum = 0;
        var consumer = Task.Run(async () =>
        {
            while (await block.OutputAvailableAsync().ConfigureAwait(false))
            {
                while (block.TryReceive(out var value))
                {
                    sum += value;
                }
            }
        });
        for (var i = 0; i < count; i++)
        {
            await block.SendAsync(i).ConfigureAwait(false);
        }

        block.Complete();
        await consumer.ConfigureAwait(false);
        return sum;
    }
}
