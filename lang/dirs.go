package lang

import (
	"fmt"
	"os"
	"path/filepath"
)

// SourceFiles lists the contract sources (*.tenet.hcl) directly inside
// dir, sorted; none when dir cannot be read.
func SourceFiles(dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*"+FileSuffix))
	return files
}

// ContractDirs lists the contracts a directory holds: dir itself when it
// holds sources, else each subdirectory that does, in name order (a
// collection, such as contracts/agentdojo). It is an error when there are
// none.
func ContractDirs(dir string) ([]string, error) {
	if len(SourceFiles(dir)) > 0 {
		return []string{dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if e.IsDir() && len(SourceFiles(sub)) > 0 {
			dirs = append(dirs, sub)
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s holds no *.tenet.hcl files and no contract directories", dir)
	}
	return dirs, nil
}
