using System.Runtime.InteropServices;
using Millrace.Cli;

// SIGINT and SIGTERM cancel the run instead of killing the process, so outputs in flight are abandoned cleanly (no
// temporary file left) and a batch prints what it finished; the exit code then says which signal stopped it. A run
// that has not stopped 5 s later is blocked where no cancellation reaches (opening a pipe that has no writer): the
// tool then exits with the signal's code, and at once on a second signal.
using var cancel = new CancellationTokenSource();
var signalExitCode = 0;
void Stop(PosixSignalContext context, int exitCode)
{
    context.Cancel = true;
    if (Interlocked.CompareExchange(ref signalExitCode, exitCode, 0) != 0)
    {
        Environment.Exit(exitCode);
    }

    _ = Task.Delay(TimeSpan.FromSeconds(5)).ContinueWith(_ => Environment.Exit(exitCode), TaskScheduler.Default);
    try
    {
        cancel.Cancel();
    }
    catch (ObjectDisposedException)
    {
        // The signal came as the tool was exiting: there is nothing left to stop.
    }
}

using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, context => Stop(context, ExitCodes.Interrupted));
using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context => Stop(context, ExitCodes.Terminated));
var exitCode = await MillraceCli.RunAsync(args, CliConsole.System, cancel.Token);
return exitCode == ExitCodes.Interrupted && signalExitCode != 0 ? signalExitCode : exitCode;
