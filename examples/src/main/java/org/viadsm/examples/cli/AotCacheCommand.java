package org.viadsm.examples.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.viadsm.via.internal.JavaProcess;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code viadsm aot-cache FILE}: records the startup cache of this JVM's jar into FILE (see {@link AotCache});
 * the {@code viadsm} script runs it once per build, not users. Says in one line on standard error if it could not,
 * and exits 0 either way: a run without the cache is only slower to start.
 */
@Command(name = "aot-cache", hidden = true, description = "Records the startup cache of this jar into FILE.")
final class AotCacheCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "FILE")
    private Path cache;

    @Override
    public Integer call()
    {
        final Path file = cache.toAbsolutePath();
        if (!AotCache.create(JavaProcess.classPath(), ViadsmCommand.class.getName(), List.of("aot-training"), file))
        {
            String why;
            try
            {
                why = Files.readString(file.resolveSibling(file.getFileName() + ".failed")).strip();
            }
            catch (final java.io.IOException ex)
            {
                why = ex.toString();
            }
            System.err.println("viadsm: no startup cache (" + why + "); JVMs start without one");
        }
        return 0;
    }
}
