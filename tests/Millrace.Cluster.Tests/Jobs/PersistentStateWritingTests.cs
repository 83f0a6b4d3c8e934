using Millrace.Cluster.Jobs;

namespace Millrace.Cluster.Tests.Jobs;

public class PersistentStateWritingTests
{
    [Fact]
    public async Task FailedWrite_DeactivatesTheGrain_AndGoesOn()
    {
        var state = new FailingState { Failure = new IOException("the disk is full") };
        var deactivations = 0;

        var thrown = await Assert.ThrowsAsync<IOException>(() => state.WriteOrForgetAsync(() => deactivations++));

        Assert.Same(state.Failure, thrown);
        Assert.Equal(1, deactivations);
    }

    [Fact]
    public async Task Write_KeepsTheGrain()
    {
        var state = new FailingState();
        var deactivations = 0;

        await state.WriteOrForgetAsync(() => deactivations++);

        Assert.Equal((1, 0), (state.Writes, deactivations));
    }

    private sealed class FailingState : IPersistentState<int>
    {
        public Exception? Failure { get; init; }

        public int Writes { get; private set; }

        public int State { get; set; }

        public string? Etag => null;

        public bool RecordExists => Writes > 0;

        public Task ClearStateAsync() => Task.CompletedTask;

        public Task ReadStateAsync() => Task.CompletedTask;

        public Task WriteStateAsync()
        {
            Writes++;
            return Failure is null ? Task.CompletedTask : Task.FromException(Failure);
        }
    }
}
