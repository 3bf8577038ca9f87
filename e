culprit: unknown revision: good
