package org.viadsm.examples.cli;

import org.viadsm.dsm.DsmContext;
import picocli.CommandLine;

/**
 * The {@code --page-size} check of every command that takes the option: the rule {@link DsmContext} applies, made
 * before any node starts, so a bad value is a usage error rather than a node's failure.
 */
final class PageSizeOption
{
    private PageSizeOption()
    {
    }

    /**
     * Refuses a page size {@link DsmContext#pageSize(int)} would refuse.
     *
     * @param commandLine the command given the option.
     * @param pageSize    the value given.
     * @return {@code pageSize}.
     * @throws CommandLine.ParameterException naming the option and the rule.
     */
    static int check(final CommandLine commandLine, final int pageSize)
    {
        if (!DsmContext.isValidPageSize(pageSize))
        {
            throw new CommandLine.ParameterException(commandLine,
                "--page-size must be " + DsmContext.PAGE_SIZE_RULE + ", not " + pageSize);
        }
        return pageSize;
    }
}
